import { useId, useState } from "react";
import { Link } from "react-router";
import type { Delivery } from "../api.ts";
import { dateTime, preciseDateTime } from "../ui/format-date.ts";
import { StateBadge } from "../ui/StateBadge.tsx";
import { attemptOutcome, lastOutcome } from "./delivery-words.ts";

const COLUMNS = 7;

/** One delivery: where it goes and how it stands; its attempts open in a full-width row beneath. */
export function DeliveryRow({ delivery: d }: { delivery: Delivery }) {
  const [open, setOpen] = useState(false);
  const historyId = useId();
  const count = `${d.history.length} ${d.history.length === 1 ? "attempt" : "attempts"}`;
  return (
    <>
      <tr data-delivery-id={d.id} data-request-id={d.requestId} className={open ? "expanded" : ""}>
        <td><Link to={`/requests/${d.requestId}`} title={d.requestId}><code>{d.requestId.slice(0, 8)}…</code></Link></td>
        <td className="url"><code>{d.url}</code></td>
        <td><StateBadge state={d.state} testId="delivery-state" /></td>
        <td className="num">{d.attempts}</td>
        <td data-testid="delivery-last">{lastOutcome(d)}</td>
        <td className="date">{d.state === "delivered" ? `delivered ${dateTime(d.deliveredAt)}` : d.nextAttemptAt ? dateTime(d.nextAttemptAt) : "—"}</td>
        <td>
          {d.history.length === 0 ? (
            <span className="muted">none yet</span>
          ) : (
            <button type="button" className="link disclosure" aria-expanded={open} aria-controls={historyId} onClick={() => setOpen(!open)}>
              {open ? `Hide ${count}` : `Show ${count}`}
            </button>
          )}
        </td>
      </tr>
      {open && (
        <tr className="history" id={historyId} data-testid="delivery-history">
          <td colSpan={COLUMNS}>
            <ol className="attempts">
              {d.history.map((a) => (
                <li key={a.attempt} value={a.attempt}><span className="date">{preciseDateTime(a.attemptedAt)}</span> {attemptOutcome(a)}</li>
              ))}
            </ol>
          </td>
        </tr>
      )}
    </>
  );
}
