import type { SecretInfo } from "../api.ts";
import { dateTime } from "../ui/format-date.ts";

/** Whether the account has a signing secret, when it was made and rotated: never the secret itself. */
export function SecretCard({ info, busy, onCreate, onRotate }: { info: SecretInfo | null; busy: boolean; onCreate: () => void; onRotate: () => void }) {
  if (!info) {
    return (
      <div className="empty card" data-testid="webhook-secret-empty">
        <h2>No signing secret yet</h2>
        <p>A request can name a <code>webhook_url</code> only once the account has a signing secret. Every delivery is signed with it, so your receiver can tell that it came from us and was not changed on the way.</p>
        <p><button type="button" onClick={onCreate} disabled={busy}>Create signing secret</button></p>
      </div>
    );
  }
  const previousValid = info.previousValidUntil !== null && Date.parse(info.previousValidUntil) > Date.now();
  return (
    <div className="card secret-info" data-testid="webhook-secret">
      <div className="section-head">
        <h2>Signing secret</h2>
        <button type="button" className="secondary" onClick={onRotate} disabled={busy}>Rotate secret</button>
      </div>
      <p>This account has a signing secret, created {dateTime(info.createdAt)}{info.rotatedAt ? <>, last rotated {dateTime(info.rotatedAt)}</> : ", never rotated"}.</p>
      {previousValid && <p className="muted small" data-testid="previous-secret">The previous secret also signs deliveries until {dateTime(info.previousValidUntil)}, so receivers that still hold it keep verifying.</p>}
    </div>
  );
}
