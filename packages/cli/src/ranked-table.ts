import type { RankResponse } from "@adrank/sdk";
import { modelsNoteLines } from "./models-note.ts";
import { fixed, signedFixed } from "./number-format.ts";
import { counted } from "./plural.ts";

const pad = (s: string, n: number) => (s.length >= n ? s : s + " ".repeat(n - s.length));
const fmt = (n: number | null | undefined, signed = false) => (n === null || n === undefined ? "–" : signed ? signedFixed(n, 2) : fixed(n, 2));

/**
 * The ranked table the terminal shows: one row per ranked image, then failures, the bill, the
 * models that answered and, when the sim model was one of them, a warning saying so.
 */
export function rankedTable(response: RankResponse, nameOf: (assetId: string | null, url: string) => string, { colour = false } = {}): string {
  const rows = response.ranked.map((r) => [String(r.rank), nameOf(r.asset_id, r.asset_url), fmt(r.score), r.confidence, fmt(r.copy_lift, true), r.panel_outcome ? (r.panel_outcome.flipped ? "flipped" : "kept") : ""]);
  const header = ["rank", "image", "score", "confidence", "copy lift", "panel"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i]!)).join("  ").trimEnd();
  const out = [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)];
  for (const e of response.errors) out.push(`failed: ${nameOf(e.asset_id, e.asset_url)}: ${e.error}`);
  const s = response.summary;
  out.push("", `${s.assets_ranked} ranked, ${s.assets_failed} failed; ${counted(s.credits_used, "credit")} used, ${s.credits_remaining ?? "?"} left`);
  out.push(...modelsNoteLines(s.models, "scores", colour));
  return out.join("\n");
}
