import type { AnswerWarning } from "@adrank/sdk";
import { escapeHtml } from "./eval/html/escape.ts";
import { warningsToShow } from "./warning-lines.ts";

/** The styles of the warnings box, for the report's <style>. */
export const HTML_WARNINGS_STYLE = `.warnings{background:#fdf1e7;border-left:4px solid #d9822b;border-radius:6px;padding:.6rem .9rem;margin:1rem 0}.warnings h2{font-size:1rem;margin:0 0 .4rem}
.warnings ul{margin:0;padding-left:1.1rem}.warnings li{margin:.3rem 0}.warnings .code{color:#8a5a2b;font-size:.75rem;font-family:ui-monospace,monospace;margin-left:.4rem}`;

/**
 * The answer's validity warnings as a box: each message as the sentence it is, its code in small
 * text after it. Every text is escaped. Empty when there is none, or the server is older than them.
 */
export function htmlWarnings(all: readonly AnswerWarning[] | undefined, models?: { simulated: boolean }): string {
  const warnings = warningsToShow(all, models);
  if (warnings.length === 0) return "";
  const items = warnings.map((w) => `<li>${escapeHtml(w.message)}<span class="code">${escapeHtml(w.code)}</span></li>`).join("");
  return `<section class="warnings" aria-label="Warnings"><h2>${warnings.length === 1 ? "Warning" : "Warnings"}</h2><ul>${items}</ul></section>`;
}
