import type { MethodReceipt, ModelReceipt } from "@adrank/sdk";
import { escapeHtml } from "./eval/html/escape.ts";
import { fixed } from "./number-format.ts";

/** The styles of the receipt, for the report's <style>. */
export const HTML_RECEIPT_STYLE = `.receipt{margin:1rem 0;border:1px solid #ddd;border-radius:8px;padding:.5rem .9rem}.receipt summary{cursor:pointer;font-weight:600}
.receipt dl{display:grid;grid-template-columns:max-content 1fr;gap:.35rem 1.2rem;margin:.6rem 0}.receipt dt{color:#666}.receipt dd{margin:0}.receipt ul{margin:0;padding-left:1.1rem}
.receipt code{font-size:.85rem;overflow-wrap:anywhere}`;

const code = (s: string) => `<code>${escapeHtml(s)}</code>`;
const list = (items: string[]) => `<ul>${items.map((i) => `<li>${i}</li>`).join("")}</ul>`;

/** "openai:gpt-5-mini: reported gpt-5-mini-2025-08-07 · temperature 1 · thinking reasoning_effort=low", escaped. */
function modelItem(m: ModelReceipt): string {
  const versions = m.versions.length > 0 ? `reported ${m.versions.map(code).join(", ")}` : "no version reported";
  const temperature = m.temperature === null ? "no temperature sent" : `temperature ${escapeHtml(String(m.temperature))}`;
  const thinking = m.thinking === null ? "no thinking control sent" : `thinking ${code(m.thinking)}`;
  return `${code(m.model)}: ${versions} · ${temperature} · ${thinking}`;
}

/**
 * "How this was produced": the answer's receipt in a collapsed section, so a reader can compare
 * it with another answer or run it again. Rows the answer has nothing for (an empty list, no
 * embedder) are left out. Every text is escaped. Empty for a server older than the receipt.
 */
export function htmlReceipt(method: MethodReceipt | undefined): string {
  if (!method) return "";
  const rows: Array<[string, string]> = [["Method version", code(method.version)]];
  if (method.prompt_templates.length > 0) rows.push([method.prompt_templates.length === 1 ? "Prompt template" : "Prompt templates", method.prompt_templates.map(code).join(", ")]);
  if (method.reference_sets.length > 0) {
    const sets = method.reference_sets.map((r) => `${code(r.hash)}, mean anchor similarity ${r.mean_similarity === null ? "not measured" : fixed(r.mean_similarity, 2)}`);
    const limit = method.reference_similarity_limit === null ? "" : `<p>Warned above a mean similarity of ${fixed(method.reference_similarity_limit, 2)}.</p>`;
    rows.push(["Reference sets", list(sets) + limit]);
  }
  if (method.embedder) rows.push(["Embedder", `${code(method.embedder.model)}, ${method.embedder.dimensions} dimensions`]);
  if (method.generators.length > 0) rows.push(["Generators", list(method.generators.map(modelItem))]);
  if (method.voters.length > 0) rows.push(["Voters", list(method.voters.map(modelItem))]);
  const dl = rows.map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`).join("");
  return `<details class="receipt"><summary>How this was produced</summary><dl>${dl}</dl><p class="models">The same inputs with the same receipt give the same answer where the models allow it: a model sampled at a temperature above 0 varies.</p></details>`;
}
