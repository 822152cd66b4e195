import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router";
import { api, ApiError, type Delivery, type SecretInfo } from "../api.ts";
import { EmptyState } from "../ui/EmptyState.tsx";
import { useToast } from "../ui/toasts.tsx";
import { usePageTitle } from "../ui/use-page-title.ts";
import { DeliveryRow } from "./DeliveryRow.tsx";
import { FreshSecretCard } from "./FreshSecretCard.tsx";
import { RotateSecretDialog } from "./RotateSecretDialog.tsx";
import { SecretCard } from "./SecretCard.tsx";
import { VerifyHelp } from "./VerifyHelp.tsx";

interface SecretState {
  secret: SecretInfo | null;
  graceHours: number;
}

/** The signing secret (made, rotated, shown once), how to verify a delivery, and the deliveries with their attempts. */
export function WebhooksPage() {
  usePageTitle("Webhooks");
  const notify = useToast();
  const [secret, setSecret] = useState<SecretState | null>(null);
  const [deliveries, setDeliveries] = useState<Delivery[] | null>(null);
  const [fresh, setFresh] = useState<string | null>(null);
  const [rotating, setRotating] = useState(false);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    const [s, d] = await Promise.all([api<SecretState>("GET", "/webhooks/secret"), api<{ deliveries: Delivery[] }>("GET", "/webhooks/deliveries")]);
    setSecret(s);
    setDeliveries(d.deliveries);
  }, []);
  useEffect(() => void load(), [load]);

  const make = async (path: "/webhooks/secret" | "/webhooks/secret/rotate", done: string) => {
    setBusy(true);
    try {
      const made = await api<{ secret: string }>("POST", path);
      setFresh(made.secret);
      notify(done);
    } catch (err) {
      notify(err instanceof ApiError ? err.message : "The signing secret could not be made.", "error");
    } finally {
      setBusy(false);
      setRotating(false);
    }
    await load();
  };

  return (
    <section>
      <h1>Webhooks</h1>
      <p className="muted lead">
        Send <code>"async": true</code> with a <code>webhook_url</code> and the result is POSTed to that URL when the request finishes, signed with this
        account's secret. You can always fetch it from <Link to="/requests">Requests</Link> as well.
      </p>
      {fresh && <FreshSecretCard secret={fresh} onDone={() => setFresh(null)} />}
      {secret && <SecretCard info={secret.secret} busy={busy} onCreate={() => void make("/webhooks/secret", "Signing secret created: copy it now.")} onRotate={() => setRotating(true)} />}
      <VerifyHelp />
      <h2 className="page-section">Deliveries</h2>
      {deliveries && deliveries.length === 0 && (
        <EmptyState title="No deliveries yet" testId="deliveries-empty">
          <p>When an asynchronous request with a <code>webhook_url</code> finishes, its delivery shows here with every attempt: the status your receiver answered or the error, and when the next retry is due.</p>
          <p className="muted">For example <code>{`{ "async": true, "webhook_url": "https://example.com/hooks/adrank", … }`}</code> in a rank or pairwise call.</p>
        </EmptyState>
      )}
      {deliveries && deliveries.length > 0 && (
        <table className="keys deliveries" data-testid="deliveries-table">
          <thead><tr><th>Request</th><th>URL</th><th>State</th><th className="num">Attempts</th><th>Last answer</th><th>Next attempt</th><th>History</th></tr></thead>
          <tbody>{deliveries.map((d) => <DeliveryRow key={d.id} delivery={d} />)}</tbody>
        </table>
      )}
      {secret && <RotateSecretDialog open={rotating} graceHours={secret.graceHours} onConfirm={() => make("/webhooks/secret/rotate", "Signing secret rotated: copy the new one now.")} onCancel={() => setRotating(false)} />}
    </section>
  );
}
