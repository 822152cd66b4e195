import type { RankResponse } from "@adrank/sdk";
import { modelsNoteLines } from "./models-note.ts";
import { fixed, signedFixed } from "./number-format.ts";
import { percent } from "./percent.ts";
import { counted } from "./plural.ts";
import { TOO_CLOSE_LEGEND, TOO_CLOSE_MARK, tooCloseLine } from "./too-close.ts";
import { warningLines } from "./warning-lines.ts";

const pad = (s: string, n: number) => (s.length >= n ? s : s + " ".repeat(n - s.length));
const fmt = (n: number | null | undefined, signed = false) => (n === null || n === undefined ? "–" : signed ? signedFixed(n, 2) : fixed(n, 2));

type Ranked = RankResponse["ranked"][number];

/** The rank cell: "2", or "2?" when this asset and the next are too close to call. */
const rankCell = (r: Ranked) => `${r.rank}${r.too_close_to_call === true ? TOO_CLOSE_MARK : ""}`;

/**
 * The ranked table the terminal shows: one row per ranked image (a "?" beside the rank when it
 * and the next are a coin toss, and P>next, the chance it truly outranks the next, when the server
 * sends it), what the "?" means, failures, how many neighbouring pairs are too close to call, the
 * answer's warnings, the bill, the models that answered and, when the sim model was one of them,
 * a warning saying so. An answer from a server older than those fields prints as it always did.
 */
export function rankedTable(response: RankResponse, nameOf: (assetId: string | null, url: string) => string, { colour = false } = {}): string {
  // The column only when some asset has a figure: an older server sends none, one asset has none to give.
  const withPNext = response.ranked.some((r) => typeof r.p_above_next === "number");
  const rows = response.ranked.map((r) => [
    rankCell(r),
    nameOf(r.asset_id, r.asset_url),
    fmt(r.score),
    r.confidence,
    fmt(r.copy_lift, true),
    ...(withPNext ? [typeof r.p_above_next === "number" ? percent(r.p_above_next) : ""] : []),
    r.panel_outcome ? (r.panel_outcome.flipped ? "flipped" : "kept") : "",
  ]);
  // P>next after copy lift: scripts that read the first five columns by position keep working.
  const header = ["rank", "image", "score", "confidence", "copy lift", ...(withPNext ? ["P>next"] : []), "panel"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i]!)).join("  ").trimEnd();
  const out = [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)];
  if (response.ranked.some((r) => r.too_close_to_call === true)) out.push(TOO_CLOSE_LEGEND);
  for (const e of response.errors) out.push(`failed: ${nameOf(e.asset_id, e.asset_url)}: ${e.error}`);
  const s = response.summary;
  const tooClose = tooCloseLine(s.uncertainty);
  if (tooClose) out.push(tooClose);
  out.push(...warningLines(s.warnings, s.models));
  out.push("", `${s.assets_ranked} ranked, ${s.assets_failed} failed; ${creditsLine(s)}`);
  out.push(...modelsNoteLines(s.models, "scores", colour));
  return out.join("\n");
}

/** The bill: what was used and what is left, or, while the ledger has not confirmed the charge, that it is pending (`adrank get <request_id>` shows it confirmed). */
export function creditsLine(s: { credits_used: number; credits_remaining: number | null; credits_status?: "confirmed" | "pending" | undefined; evaluations_reused?: number | undefined }): string {
  // Evaluations reused from earlier requests (--reuse) cost nothing: said so the bill adds up.
  const reused = s.evaluations_reused ? `; ${counted(s.evaluations_reused, "evaluation")} reused at no charge` : "";
  if (s.credits_status === "pending") return `${counted(s.credits_used, "credit")} used (pending the ledger's confirmation: adrank get <request_id> shows it confirmed)${reused}`;
  return `${counted(s.credits_used, "credit")} used, ${s.credits_remaining ?? "?"} left${reused}`;
}
