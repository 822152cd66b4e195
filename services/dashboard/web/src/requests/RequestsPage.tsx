import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router";
import { api, ApiError, type RequestPage, type RequestSummary } from "../api.ts";
import { EmptyState } from "../ui/EmptyState.tsx";
import { useToast } from "../ui/toasts.tsx";
import { usePageTitle } from "../ui/use-page-title.ts";
import { RequestRow } from "./RequestRow.tsx";

/** Every rank, rank-across-audiences and pairwise request of the account, newest first, 50 at a time. */
export function RequestsPage() {
  usePageTitle("Requests");
  const notify = useToast();
  const [rows, setRows] = useState<RequestSummary[] | null>(null);
  const [nextBefore, setNextBefore] = useState<string | null>(null);
  const [retentionDays, setRetentionDays] = useState(30);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async (before: string | null) => {
    setBusy(true);
    try {
      const page = await api<RequestPage>("GET", before ? `/requests?before=${encodeURIComponent(before)}` : "/requests");
      setRows((shown) => (before && shown ? [...shown, ...page.requests] : page.requests));
      setNextBefore(page.nextBefore);
      setRetentionDays(page.retentionDays);
    } catch (err) {
      notify(err instanceof ApiError ? err.message : "The requests could not be loaded.", "error");
    } finally {
      setBusy(false);
    }
  }, [notify]);
  useEffect(() => void load(null), [load]);

  return (
    <section>
      <div className="section-head">
        <h1>Requests</h1>
        {rows && rows.length > 0 && <button type="button" className="secondary" onClick={() => void load(null)} disabled={busy}>Refresh</button>}
      </div>
      <p className="muted lead">Every rank, rank-across-audiences and pairwise call of this account, from any key, newest first. Open one to see its result, which the API keeps for {retentionDays} days.</p>
      {rows && rows.length === 0 && (
        <EmptyState title="No requests yet" testId="requests-empty">
          <p>Each call to <code>POST /api/v1/rank</code>, <code>POST /api/v1/rank/audiences</code> or <code>POST /api/v1/pairwise</code> shows up here with its state, its progress and its result, whichever key made it, the <Link to="/playground">playground</Link>'s too.</p>
          <p>Add <code>"async": true</code> to a call and the API answers <code>202 Accepted</code> at once: follow the request here, fetch its result with <code>GET /api/v1/requests/&#123;request_id&#125;</code>, or have it sent to your <Link to="/webhooks">webhook</Link>.</p>
          <p className="muted">Calls need an <Link to="/keys">API key</Link>.</p>
        </EmptyState>
      )}
      {rows && rows.length > 0 && (
        <table className="keys requests" data-testid="requests-table">
          <thead>
            <tr><th>Request</th><th>Operation</th><th>Mode</th><th>State</th><th className="num">HTTP</th><th>Progress</th><th>Created</th><th className="num">Duration</th><th>Webhook</th></tr>
          </thead>
          <tbody>{rows.map((r) => <RequestRow key={r.requestId} request={r} />)}</tbody>
        </table>
      )}
      {nextBefore && <div className="row end"><button type="button" className="secondary" onClick={() => void load(nextBefore)} disabled={busy}>Show older requests</button></div>}
    </section>
  );
}
