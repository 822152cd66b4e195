import { Link } from "react-router";
import type { RequestSummary } from "../api.ts";
import { dateTime } from "../ui/format-date.ts";
import { StateBadge } from "../ui/StateBadge.tsx";
import { durationText, progressText } from "./request-words.ts";

/** One request of the history; its id opens the request's own page. */
export function RequestRow({ request: r }: { request: RequestSummary }) {
  return (
    <tr data-request-id={r.requestId}>
      <td><Link to={`/requests/${r.requestId}`} title={r.requestId} className="request-id"><code>{r.requestId.slice(0, 8)}…</code></Link></td>
      <td>{r.operation}</td>
      <td>{r.mode}</td>
      <td><StateBadge state={r.state} /></td>
      <td className="num">{r.status ?? "—"}</td>
      <td>{progressText(r.progress)}</td>
      <td className="date">{dateTime(r.createdAt)}</td>
      <td className="num">{durationText(r.createdAt, r.finishedAt) ?? "running"}</td>
      <td>{r.webhookState ? <StateBadge state={r.webhookState} /> : <span className="muted">none</span>}</td>
    </tr>
  );
}
