import type { MethodReceipt as Receipt, ModelReceipt } from "./answers.ts";
import { modelSettingsText } from "./trust-words.ts";
import "./trust.css";

function Models({ models }: { models: ModelReceipt[] }) {
  return (
    <ul>
      {models.map((m, i) => (
        <li key={`${m.model}-${i}`}>
          <code>{m.model}</code>: {modelSettingsText(m)}
        </li>
      ))}
    </ul>
  );
}

/**
 * "How this was produced", collapsed: the answer's receipt (method version, prompt template
 * hashes, reference sets, embedder, every generator and voter with the versions the provider
 * reported and the settings sent), so two answers can be compared or one run again. Rows the
 * answer has nothing for are left out; nothing renders for a server older than the receipt.
 */
export function MethodReceipt({ method }: { method: Receipt | undefined }) {
  if (!method) return null;
  return (
    <details className="receipt" data-testid="method-receipt">
      <summary>How this was produced</summary>
      <dl>
        <dt>Method version</dt>
        <dd><code>{method.version}</code></dd>
        {method.prompt_templates.length > 0 && (
          <>
            <dt>{method.prompt_templates.length === 1 ? "Prompt template" : "Prompt templates"}</dt>
            <dd>{method.prompt_templates.map((h, i) => <code key={h}>{i > 0 ? ", " : ""}{h}</code>)}</dd>
          </>
        )}
        {method.reference_sets.length > 0 && (
          <>
            <dt>Reference sets</dt>
            <dd>
              <ul>
                {method.reference_sets.map((r, i) => (
                  <li key={`${r.hash}-${i}`}>
                    <code>{r.hash}</code>, mean anchor similarity {r.mean_similarity === null ? "not measured" : r.mean_similarity.toFixed(2)}
                  </li>
                ))}
              </ul>
              {method.reference_similarity_limit !== null && <small className="muted">Warned above a mean similarity of {method.reference_similarity_limit.toFixed(2)}.</small>}
            </dd>
          </>
        )}
        {method.embedder && (
          <>
            <dt>Embedder</dt>
            <dd><code>{method.embedder.model}</code>, {method.embedder.dimensions} dimensions</dd>
          </>
        )}
        {method.generators.length > 0 && (
          <>
            <dt>Generators</dt>
            <dd><Models models={method.generators} /></dd>
          </>
        )}
        {method.voters.length > 0 && (
          <>
            <dt>Voters</dt>
            <dd><Models models={method.voters} /></dd>
          </>
        )}
      </dl>
      <p className="muted small">The same inputs with the same receipt give the same answer where the models allow it: a model sampled at a temperature above 0 varies.</p>
    </details>
  );
}
