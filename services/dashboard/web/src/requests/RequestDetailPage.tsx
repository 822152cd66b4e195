import { useEffect, useState } from "react";
import { Link, useParams } from "react-router";
import { api, ApiError, type RequestDetail } from "../api.ts";
import { EmptyState } from "../ui/EmptyState.tsx";
import { usePageTitle } from "../ui/use-page-title.ts";
import { FetchSamples } from "./FetchSamples.tsx";
import { RequestFacts } from "./RequestFacts.tsx";
import { ResultCard } from "./ResultCard.tsx";
import { OPERATION_TITLES, progressText } from "./request-words.ts";

/** How often a running request is looked at again: the API's own Retry-After. */
const REFRESH_MS = 2_000;

/** One request: its state and progress (refreshed while it runs), its result, and how to fetch it from code. */
export function RequestDetailPage() {
  const { id = "" } = useParams();
  const [request, setRequest] = useState<RequestDetail | null | undefined>(undefined);
  const [problem, setProblem] = useState("");
  usePageTitle(request ? `${OPERATION_TITLES[request.operation]} request` : "Request");

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let live = true;
    const look = async () => {
      try {
        const found = await api<RequestDetail>("GET", `/requests/${encodeURIComponent(id)}`);
        if (!live) return;
        setRequest(found);
        setProblem("");
        if (found.state === "running") timer = setTimeout(() => void look(), REFRESH_MS);
      } catch (err) {
        if (!live) return;
        if (err instanceof ApiError && err.status === 404) setRequest(null);
        else {
          setProblem(err instanceof ApiError ? err.message : "The request could not be loaded.");
          timer = setTimeout(() => void look(), REFRESH_MS);
        }
      }
    };
    void look();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [id]);

  const back = <p className="back"><Link to="/requests">← All requests</Link></p>;
  if (request === undefined) return <section>{back}<p className="loading">{problem || "Loading…"}</p></section>;
  if (request === null) {
    return (
      <section>
        {back}
        <h1>No such request</h1>
        <EmptyState title="Nothing to show" testId="request-not-found">
          <p>This account has no request <code>{id}</code>. The id may be mistyped, belong to another account, or be older than the time results are kept.</p>
        </EmptyState>
      </section>
    );
  }
  return (
    <section>
      {back}
      <h1>{OPERATION_TITLES[request.operation]} request</h1>
      <p className="muted lead">Request id <code data-testid="request-id">{request.requestId}</code></p>
      {problem && <p className="error" role="alert">{problem}</p>}
      <RequestFacts request={request} />
      {request.state === "running" && (
        <div className="card running" data-testid="request-running">
          <progress max={request.progress.total} value={request.progress.done} aria-label="Progress" /> {progressText(request.progress)} done.
          <p className="muted small">
            {request.stalled ? "The server running it stopped; another one takes it over within seconds. " : ""}
            This page refreshes every {REFRESH_MS / 1_000} seconds until the request finishes.
          </p>
        </div>
      )}
      {request.state === "failed" && (
        <div className="card failed" data-testid="request-error">
          <h2>It failed</h2>
          <p>{request.error ?? "The request ended without a result."} Nothing was charged for the work that did not run.</p>
        </div>
      )}
      {request.resultBody !== null && <ResultCard requestId={request.requestId} body={request.resultBody} />}
      <FetchSamples requestId={request.requestId} retentionDays={request.retentionDays} />
    </section>
  );
}
