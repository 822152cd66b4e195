import type { RankAudiencesResponse } from "@adrank/sdk";
import { truncate } from "./display-width.ts";
import { REVERSAL_MARK, reversalSentence, reversedAssets, type NameOf } from "./audience-comparison-text.ts";
import { escapeHtml as escape, safeImageSrc } from "./eval/html/escape.ts";
import type { ReportImages } from "./html-report.ts";
import { fixed } from "./number-format.ts";

/** One colour per audience, in the request's order: the Okabe–Ito palette, which colour-blind readers tell apart. */
export const AUDIENCE_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00"] as const;

export const colourOf = (j: number): string => AUDIENCE_COLOURS[j % AUDIENCE_COLOURS.length]!;

/** The chart's styles, for the report's <style>. */
export const HTML_CHART_STYLE = `.chart{margin:1rem 0}.chart-scroll{overflow-x:auto;border:1px solid #eee;border-radius:8px;padding:.5rem;width:fit-content;max-width:100%;box-sizing:border-box}
.legend{display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;list-style:none;padding:0;margin:.5rem 0}.legend li{display:flex;align-items:center;gap:.4rem}
.swatch{display:inline-block;width:.9rem;height:.9rem;border-radius:3px;flex:none}.chart text{font-family:system-ui,sans-serif}`;

const BAR = 24;
const BAR_GAP = 3;
const GROUP_GAP = 36;
const GROUP_MIN = 140;
const LEFT = 36;
const RIGHT = 12;
const TOP = 18;
const PLOT = 260;
const THUMB_MAX = 100;
/** Roughly the width of a character of the 11 px labels. */
const CHAR = 6.6;
const NAME_LINE = 16;
const BRACKET_STEP = 16;
/** Reversals drawn under the chart; any more are in the numbered list only. */
const BRACKETS_MAX = 12;

/** The y of a score (1 to 5) in the plot. */
const yOf = (score: number) => TOP + (PLOT * (5 - Math.min(5, Math.max(1, score)))) / 4;
const px = (n: number) => n.toFixed(1).replace(/\.0$/, "");

/**
 * Each creative's score per audience as an inline SVG grouped bar chart: one group per creative
 * (in the request's order) with its thumbnail and file name under it, one bar per audience in
 * its colour with the score above it, a "×" where it failed for an audience, and each reversal
 * drawn as a numbered bracket joining its two creatives (the numbers of the reversals' list).
 * Hovering a bar or a bracket says what it is (<title>, no script). Every text is escaped; only
 * data URIs of images are drawn, so the chart fetches nothing.
 */
export function audienceChart(response: RankAudiencesResponse, images: ReportImages, nameOf: NameOf): string {
  const audiences = response.by_audience.map((a) => a.audience);
  const groups = response.comparison;
  const inner = audiences.length * BAR + (audiences.length - 1) * BAR_GAP;
  const groupWidth = Math.max(inner + GROUP_GAP, GROUP_MIN);
  const thumb = Math.min(THUMB_MAX, groupWidth - 16);
  const centreOf = (assetIndex: number) => {
    const g = groups.findIndex((c) => c.asset_index === assetIndex);
    return LEFT + (Math.max(0, g) + 0.5) * groupWidth;
  };
  const reversed = reversedAssets(response);
  const brackets = response.reversals.slice(0, BRACKETS_MAX);
  const labelsTop = TOP + PLOT + 10;
  const bracketsTop = labelsTop + thumb + NAME_LINE + 14;
  const width = LEFT + groups.length * groupWidth + RIGHT;
  const height = bracketsTop + (brackets.length > 0 ? brackets.length * BRACKET_STEP + 6 : 0);
  const maxChars = Math.max(6, Math.floor((groupWidth - 12) / CHAR));

  const grid = [1, 2, 3, 4, 5].map((v) => `<line x1="${LEFT}" x2="${width - RIGHT}" y1="${px(yOf(v))}" y2="${px(yOf(v))}" stroke="${v === 1 ? "#999" : "#e5e5e5"}"/><text x="${LEFT - 8}" y="${px(yOf(v) + 4)}" text-anchor="end" font-size="11" fill="#666">${v}</text>`);

  const bars = groups.map((c, g) => {
    const x0 = LEFT + g * groupWidth + (groupWidth - inner) / 2;
    const name = nameOf(c.asset_id, c.asset_url);
    const marks = audiences.map((audience, j) => {
      const s = c.scores.find((x) => x.audience === audience) ?? c.scores[j];
      const x = x0 + j * (BAR + BAR_GAP);
      if (!s || s.score === null) {
        return `<text x="${px(x + BAR / 2)}" y="${px(yOf(1) - 4)}" text-anchor="middle" font-size="13" fill="${colourOf(j)}"><title>${escape(`${name}: failed for ${audience}`)}</title>×</text>`;
      }
      const top = yOf(s.score);
      const tip = `${name} for ${audience}: ${fixed(s.score, 2)}${s.rank === null ? "" : `, ranked #${s.rank}`}`;
      return `<g><title>${escape(tip)}</title><rect x="${px(x)}" y="${px(top)}" width="${BAR}" height="${px(Math.max(1, yOf(1) - top))}" fill="${colourOf(j)}" rx="2"/><text x="${px(x + BAR / 2)}" y="${px(top - 3)}" text-anchor="middle" font-size="10" fill="#333">${fixed(s.score, 2)}</text></g>`;
    });
    const centre = LEFT + (g + 0.5) * groupWidth;
    const src = safeImageSrc(images.find((i) => i.name === c.asset_id)?.dataUri ?? c.asset_url);
    const picture = src ? `<image href="${escape(src)}" x="${px(centre - thumb / 2)}" y="${labelsTop}" width="${thumb}" height="${thumb}" preserveAspectRatio="xMidYMid meet"/>` : "";
    const mark = reversed.has(c.asset_index) ? `${REVERSAL_MARK} ` : "";
    const label = `${mark}${truncate(name, maxChars - mark.length)}`;
    return `<g>${marks.join("")}${picture}<text x="${px(centre)}" y="${labelsTop + thumb + 13}" text-anchor="middle" font-size="11" fill="#1d1d1f"><title>${escape(name)}</title>${escape(label)}</text></g>`;
  });

  const drawn = brackets.map((r, k) => {
    const [a, b] = [centreOf(r.asset_a.asset_index), centreOf(r.asset_b.asset_index)].sort((p, q) => p - q) as [number, number];
    const y = bracketsTop + k * BRACKET_STEP;
    return `<g><title>${escape(`${k + 1}. ${reversalSentence(r, nameOf)}`)}</title><path d="M${px(a)} ${y - 6}V${y}H${px(b)}V${y - 6}" fill="none" stroke="#9b1f17" stroke-width="1.5"/><text x="${px(b + 6)}" y="${y + 4}" font-size="11" font-weight="600" fill="#9b1f17">${REVERSAL_MARK} ${k + 1}</text></g>`;
  });

  const description = `Bar chart of each creative's score from 1 to 5, one bar per audience: ${audiences.join(", ")}.${response.reversals.length > 0 ? ` Brackets join the two creatives of each reversal.` : ""}`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="chart-title chart-desc"><title id="chart-title">Score per creative and audience</title><desc id="chart-desc">${escape(description)}</desc>${grid.join("")}${bars.join("")}${drawn.join("")}</svg>`;
  const legend = audiences.map((a, j) => `<li><span class="swatch" style="background:${colourOf(j)}"></span>${escape(a)}</li>`).join("");
  const more = response.reversals.length > brackets.length ? `<p class="models">The chart draws the ${brackets.length} largest reversals; all ${response.reversals.length} are listed below.</p>` : "";
  return `<figure class="chart"><ul class="legend" aria-label="Audiences">${legend}</ul><div class="chart-scroll">${svg}</div>${more}</figure>`;
}
