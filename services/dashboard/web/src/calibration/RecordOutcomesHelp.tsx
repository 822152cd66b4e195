import { Link } from "react-router";
import { EmptyState } from "../ui/EmptyState.tsx";

const SAMPLE = `curl "$ADRANK_BASE_URL/api/v1/outcomes" \\
  -H "Authorization: Bearer $ADRANK_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"outcomes": [
        {"request_id": "<request_id>", "asset_id": "spring",
         "metric": "ctr", "value": 0.021, "impressions": 18000}
      ]}'`;

/** The page before any outcome is recorded: what calibration measures and the three ways to record outcomes. */
export function RecordOutcomesHelp({ minOutcomes }: { minOutcomes: number }) {
  return (
    <EmptyState title="No outcomes recorded yet" testId="calibration-empty">
      <p>
        Calibration compares the scores of your past rankings with what the creatives then did in the world (click-through rate, conversions, any number where
        higher is better). Record the outcome of ranked assets, and this page shows, per goal, how well the scores predicted them, once a goal has {minOutcomes} outcomes.
      </p>
      <ul className="how-to">
        <li><code>POST /api/v1/outcomes</code> with the <code>request_id</code> and <code>asset_id</code> of a <Link to="/requests">ranked asset</Link>, a metric name and its value;</li>
        <li><code>adrank outcomes outcomes.csv --metric ctr</code> from the CLI, for a CSV or JSON Lines file of them (columns <code>request_id</code>, <code>asset_id</code>, <code>value</code>);</li>
        <li><code>adrank eval dataset.csv --metric ctr --record-outcomes</code>, which ranks a labelled set of creatives and records their outcomes in one go.</li>
      </ul>
      <pre className="sample-code">{SAMPLE}</pre>
      <p className="muted">The <a href="/docs#tag/evaluation/POST/api/v1/outcomes" data-testid="calibration-docs-link">API reference</a> describes recording outcomes and reading calibration; calls need an <Link to="/keys">API key</Link>.</p>
    </EmptyState>
  );
}
