import type { ModelCheckRow } from "./check-models.ts";

/**
 * The preflight result as a plain-text table, then one "fix:" line under each failed row.
 *
 * @example
 * formatCheckTable(rows);
 * // role       model                     result         latency  tokens in/out
 * // generator  openai:gpt-4.1            ok               812 ms  95/12
 */
export function formatCheckTable(rows: readonly ModelCheckRow[]): string {
  const header = ["role", "model", "result", "latency", "tokens in/out"];
  const cells = rows.map((r) => [
    r.role,
    r.model,
    r.ok ? "ok" : `FAILED (${r.error?.kind ?? "error"})`,
    `${r.latencyMs} ms`,
    r.inputTokens === null && r.outputTokens === null ? "-" : `${r.inputTokens ?? "?"}/${r.outputTokens ?? "?"}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i === 3 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join("  ").trimEnd();
  const out = [line(header)];
  rows.forEach((r, i) => {
    out.push(line(cells[i]!));
    if (!r.ok) {
      out.push(`    error: ${r.error?.message ?? "unknown"}`);
      out.push(`    fix:   ${r.fix ?? fallbackFix(r)}`);
    }
  });
  const failed = rows.filter((r) => !r.ok).length;
  out.push("", failed === 0 ? `all ${rows.length} model checks passed` : `${failed} of ${rows.length} model checks failed`);
  return out.join("\n");
}

function fallbackFix(row: ModelCheckRow): string {
  switch (row.error?.kind) {
    case "timeout":
    case "unavailable":
      return "the provider did not answer: check the endpoint's address and the network path to it, then run the check again.";
    case "rate_limited":
      return "the provider is rate limiting this key now: run the check again later, or raise the key's limits.";
    case "bad_response":
      return "the model answered but its answer could not be used: raise MODEL_MAX_OUTPUT_TOKENS, or choose a model that answers in text.";
    case "refused":
      return "the model declined the check image: try another model for this role.";
    default:
      return "see docs/models.md for what each error means.";
  }
}
