import { CopyButton } from "../ui/CopyButton.tsx";
import { prettyJson } from "./request-words.ts";

/** A succeeded request's result: indented to read, copied and downloaded as the exact text the API answers. */
export function ResultCard({ requestId, body }: { requestId: string; body: string }) {
  return (
    <div className="card result" data-testid="request-result">
      <div className="section-head">
        <h2>Result</h2>
        <div className="row tight">
          <CopyButton text={body} label="Copy JSON" className="secondary" />
          <a className="button-link" href={`/console/api/requests/${encodeURIComponent(requestId)}/result`} download>Download .json</a>
        </div>
      </div>
      <pre className="json" data-testid="result-json">{prettyJson(body)}</pre>
    </div>
  );
}
