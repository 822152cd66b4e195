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
  out.push("", `${s.assets_ranked} ranked, ${s.assets_failed} failed; ${creditsLine(s)}`);
  out.push(...modelsNoteLines(s.models, "scores", colour));
  return out.join("\n");
}

/** The bill: what was used and what is left, or, while the ledger has not confirmed the charge, that it is pending (`adrank get <request_id>` shows it confirmed). */
export function creditsLine(s: { credits_used: number; credits_remaining: number | null; credits_status?: "confirmed" | "pending" | undefined }): string {
  if (s.credits_status === "pending") return `${counted(s.credits_used, "credit")} used (pending the ledger's confirmation: adrank get <request_id> shows it confirmed)`;
  return `${counted(s.credits_used, "credit")} used, ${s.credits_remaining ?? "?"} left`;
}
