import { CopyButton } from "../ui/CopyButton.tsx";
import { fetchSamples } from "./request-words.ts";

/** How to get the same answer from code: curl, the SDK and the CLI. */
export function FetchSamples({ requestId, retentionDays }: { requestId: string; retentionDays: number }) {
  return (
    <div className="card" data-testid="fetch-samples">
      <h2>Fetch it from your code</h2>
      <p className="muted small">
        <code>GET /api/v1/requests/{requestId}</code> with any key of this account answers <code>200</code> with the result above, byte for byte what the
        call answered; while the request runs, <code>202</code> with its progress and <code>Retry-After: 2</code>. Results are kept for {retentionDays} days.
      </p>
      {fetchSamples(requestId).map((s) => (
        <figure key={s.label} className="sample">
          <figcaption>
            {s.label} <CopyButton text={s.source} className="link" label={`Copy ${s.label}`} />
          </figcaption>
          <pre>{s.source}</pre>
        </figure>
      ))}
    </div>
  );
}
