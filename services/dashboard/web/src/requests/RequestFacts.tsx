import { Link } from "react-router";
import type { RequestDetail } from "../api.ts";
import { dateTime } from "../ui/format-date.ts";
import { StateBadge } from "../ui/StateBadge.tsx";
import { durationText, progressText } from "./request-words.ts";

/** What is known about one request, as a definition list. */
export function RequestFacts({ request: r }: { request: RequestDetail }) {
  return (
    <dl className="facts card" data-testid="request-facts">
      <dt>State</dt><dd><StateBadge state={r.state} testId="request-state" /></dd>
      <dt>HTTP status</dt><dd>{r.status ?? "—"}</dd>
      <dt>Mode</dt><dd>{r.mode === "async" ? "asynchronous (async: true)" : "synchronous"}</dd>
      <dt>Progress</dt><dd data-testid="request-progress">{progressText(r.progress)}</dd>
      <dt>Created</dt><dd>{dateTime(r.createdAt)}</dd>
      <dt>Finished</dt><dd>{r.finishedAt ? dateTime(r.finishedAt) : "not yet"}</dd>
      <dt>Duration</dt><dd>{durationText(r.createdAt, r.finishedAt) ?? "running"}</dd>
      <dt>Webhook</dt>
      <dd>
        {r.webhook ? (
          <><StateBadge state={r.webhook.state} /> to <code>{r.webhook.url}</code>, {r.webhook.attempts} {r.webhook.attempts === 1 ? "attempt" : "attempts"} (<Link to="/webhooks">deliveries</Link>)</>
        ) : (
          <span className="muted">none</span>
        )}
      </dd>
    </dl>
  );
}
