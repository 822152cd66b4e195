import type { AssetComparison, RankAudiencesResponse } from "@adrank/sdk";
import {
  NO_REVERSALS,
  noDifferenceSentence,
  PERSONA_WARNING,
  REVERSAL_LEGEND,
  REVERSAL_MARK,
  REVERSALS_HEADING,
  reversalSentence,
  reversedAssets,
  sensitivitySentence,
  type NameOf,
} from "./audience-comparison-text.ts";
import { displayWidth, padEnd, truncate, wrapWords } from "./display-width.ts";
import { modelsNoteLines } from "./models-note.ts";
import { fixed } from "./number-format.ts";
import { creditsLine } from "./ranked-table.ts";
import { TOO_CLOSE_BAND } from "./too-close.ts";
import { oneLine, warningLines } from "./warning-lines.ts";

/** The widest a matrix may be: five audiences with long names still fit a 100-column terminal. */
export const MATRIX_WIDTH = 100;

const NO_BREAK = "\u00a0";

const GAP = 2;
const MARK_COLUMN = 2;
const SPREAD = "spread";
const BEST = "best";
// When the names do not fit, a file name keeps at least this many columns; the audiences share the rest.
const IMAGE_MIN = 16;

type Score = AssetComparison["scores"][number];

/** "4.12 #1", or "failed" where the image failed for that audience. */
const cellOf = (s: Score | undefined) => (s === undefined || s.score === null ? "failed" : `${fixed(s.score, 2)} #${s.rank ?? "?"}`);

interface Layout {
  /** Each audience's column header. */
  labels: string[];
  /** What the best column shows for each audience. */
  bestLabels: string[];
  imageWidth: number;
  /** Lines saying which header is which audience; empty when the full names fit. */
  key: string[];
}

const letter = (i: number) => String.fromCharCode(65 + i);

/**
 * The columns' headings. The full names when the row fits, if need be with file names cut;
 * else each audience gets a letter and as much of its name as fits (the best column its letter
 * alone), file names are cut too, and a key under the matrix gives the full names.
 */
function layoutOf(audiences: string[], images: string[], cells: string[][], maxWidth: number): Layout {
  const cellWidth = (j: number) => Math.max(...cells.map((row) => displayWidth(row[j]!)));
  const naturalImage = Math.max(displayWidth("image"), ...images.map(displayWidth));
  const fixedColumns = MARK_COLUMN + displayWidth(SPREAD) + GAP * (audiences.length + 2);
  const namedColumns = fixedColumns + audiences.reduce((sum, a, j) => sum + Math.max(displayWidth(a), cellWidth(j)), 0) + Math.max(displayWidth(BEST), ...audiences.map(displayWidth));
  // Long file names alone are cut first: the audiences keep their names while an image keeps IMAGE_MIN columns.
  if (namedColumns + Math.min(naturalImage, IMAGE_MIN) <= maxWidth) return { labels: audiences, bestLabels: audiences, imageWidth: Math.min(naturalImage, maxWidth - namedColumns), key: [] };

  const widestCell = Math.max(...audiences.map((_, j) => cellWidth(j)));
  const room = maxWidth - fixedColumns - displayWidth(BEST);
  const labelled = audiences.map((a, j) => `${letter(j)} ${a}`);
  const wants = labelled.map((l, j) => Math.max(displayWidth(l), cellWidth(j)));
  const imageWidth = Math.min(naturalImage, Math.max(IMAGE_MIN, room - wants.reduce((sum, w) => sum + Math.min(w, 10), 0)));
  const widths = shareOut(wants, room - imageWidth, widestCell);
  return {
    labels: labelled.map((l, j) => truncate(l, widths[j]!)),
    bestLabels: audiences.map((_, j) => letter(j)),
    imageWidth,
    key: audiences.map((a, j) => `  ${letter(j)} = ${a}`),
  };
}

/** `total` columns shared out: each gets `least`, then the rest goes evenly to those that want more, never past what they want. */
function shareOut(wants: number[], total: number, least: number): number[] {
  const widths = wants.map(() => least);
  let left = total - least * wants.length;
  for (let open = wants.filter((w, j) => w > widths[j]!).length; left > 0 && open > 0; open = wants.filter((w, j) => w > widths[j]!).length) {
    const each = Math.max(1, Math.floor(left / open));
    wants.forEach((w, j) => {
      const add = Math.min(each, w - widths[j]!, left);
      if (add > 0) {
        widths[j]! += add;
        left -= add;
      }
    });
  }
  return widths;
}

/** "Too close to call (p between 40 % and 60 %): 1 of 2 neighbouring pairs for Skeptics, 2 of 2 for Runners" (or "for B" when the key names them), or null when no audience has such a pair. */
function tooCloseOf(response: RankAudiencesResponse, labels: string[]): string | null {
  const counts = response.by_audience.flatMap((a, j) => {
    const u = a.summary.uncertainty;
    return u && u.too_close_to_call > 0 ? [{ audience: labels[j]!, u }] : [];
  });
  if (counts.length === 0) return null;
  const parts = counts.map(({ audience, u }, k) => `${u.too_close_to_call} of ${u.adjacent_pairs}${k === 0 ? ` neighbouring ${u.adjacent_pairs === 1 ? "pair" : "pairs"}` : ""} for ${audience}`);
  return `Too close to call (p ${TOO_CLOSE_BAND}): ${parts.join(", ")}`;
}

/**
 * What the terminal shows for a ranking across audiences: a matrix of each image's score and
 * rank per audience with its spread and best audience (images in a reversal marked), what went
 * wrong per audience, the reversals, how alike each pair of audiences ranked (and which made no
 * difference at all), the warnings, the bill and the models. At most 100 columns wide whatever
 * the names; the sentences under it are as long as the names are.
 */
export function audienceMatrix(response: RankAudiencesResponse, nameOf: NameOf, { colour = false, maxWidth = MATRIX_WIDTH } = {}): string {
  const audiences = response.by_audience.map((a) => oneLine(a.audience));
  const name = (id: string | null, url: string) => oneLine(nameOf(id, url));
  const images = response.comparison.map((c) => name(c.asset_id, c.asset_url));
  const cells = response.comparison.map((c) => response.by_audience.map((a, j) => cellOf(c.scores.find((s) => s.audience === a.audience) ?? c.scores[j])));
  const layout = layoutOf(audiences, images, cells, maxWidth);
  const bestOf = (c: AssetComparison) => {
    const j = response.by_audience.findIndex((a) => a.audience === c.best_audience);
    return j < 0 ? "–" : layout.bestLabels[j]!;
  };
  const reversed = reversedAssets(response);

  const header = ["image", ...layout.labels, SPREAD, BEST];
  const rows = response.comparison.map((c, i) => [truncate(images[i]!, layout.imageWidth), ...cells[i]!, c.spread === null ? "–" : fixed(c.spread, 2), bestOf(c)]);
  const widths = header.map((h, k) => Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[k]!))));
  const line = (mark: string, cols: string[]) => (padEnd(mark, MARK_COLUMN) + cols.map((c, k) => padEnd(c, widths[k]!)).join(" ".repeat(GAP))).trimEnd();
  const out = [line("", header), line("", widths.map((w) => "-".repeat(w))), ...rows.map((r, i) => line(reversed.has(response.comparison[i]!.asset_index) ? REVERSAL_MARK : "", r))];
  if (reversed.size > 0) out.push(REVERSAL_LEGEND);
  if (layout.key.length > 0) out.push("Audiences:", ...layout.key);

  for (const a of response.by_audience) {
    for (const e of a.errors) out.push(`failed for ${oneLine(a.audience)}: ${name(e.asset_id, e.asset_url)}: ${oneLine(e.error)}`);
  }
  const tooClose = tooCloseOf(response, layout.bestLabels);
  if (tooClose) out.push(tooClose);

  out.push("", response.reversals.length > 0 ? REVERSALS_HEADING : NO_REVERSALS);
  // Sentences keep to the table's width, continued under their own start; a bracketed pair of
  // scores, "(3.90 vs 3.20)", is never split over two lines.
  const said = (sentence: string) => {
    const kept = oneLine(sentence).replace(/\([^()]*\)/g, (group) => group.replaceAll(" ", NO_BREAK));
    out.push(...wrapWords(kept, maxWidth, "  ", "    ").map((line) => line.replaceAll(NO_BREAK, " ")));
  };
  for (const r of response.reversals) said(reversalSentence(r, nameOf));

  const flagged = response.audience_sensitivity.filter((s) => s.persona_made_no_difference);
  out.push("", "Audience sensitivity (how alike two audiences rank the images):");
  for (const s of response.audience_sensitivity) {
    said(sensitivitySentence(s));
    if (s.persona_made_no_difference) said(noDifferenceSentence(s));
  }

  const s = response.summary;
  // The flagged pairs above say what this warning says, by name.
  const warnings = flagged.length > 0 ? s.warnings.filter((w) => w.code !== PERSONA_WARNING) : s.warnings;
  const warned = warningLines(warnings, s.models);
  if (warned.length > 0) out.push("", ...warned);
  out.push("", `${s.assets_ranked} ranked, ${s.assets_failed} failed over ${response.by_audience.length} audiences; ${creditsLine(s)}`);
  out.push(...modelsNoteLines(s.models, "scores", colour));
  return out.join("\n");
}
