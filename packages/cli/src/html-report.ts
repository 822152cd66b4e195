import type { RankResponse } from "@adrank/sdk";
import { escapeHtml as escape } from "./eval/html/escape.ts";
import { HTML_RECEIPT_STYLE, htmlReceipt } from "./html-receipt.ts";
import { HTML_WARNINGS_STYLE, htmlWarnings } from "./html-warnings.ts";
import { modelsNote, type ModelsUsed } from "./models-note.ts";
import { fixed, signedFixed } from "./number-format.ts";
import { percent } from "./percent.ts";
import { counted, nounFor } from "./plural.ts";
import { TOO_CLOSE_BAND } from "./too-close.ts";

const TOO_CLOSE_TITLE = `The chance it outranks the next is ${TOO_CLOSE_BAND}: it and the image ranked below it are a coin toss.`;

/** The voter models of the refined pair behind a panel outcome, from its votes (seats may differ). */
function panelModels(response: Pick<RankResponse, "summary">, winner: string, loser: string): string[] {
  const pair = response.summary.close_pair_refinement?.results?.find((p) => (p.aId === winner && p.bId === loser) || (p.aId === loser && p.bId === winner));
  if (!pair) return [];
  const models = pair.votes.map((v) => v.model).filter((m): m is string => typeof m === "string" && m !== "");
  return [...new Set(models.length > 0 ? models : pair.model ? [pair.model] : [])];
}

/** "52 % chance it truly outranks #3", with a "Too close to call" marker in the coin-toss band; "" for the last asset or an older server. */
function nextCall(r: RankResponse["ranked"][number]): string {
  if (typeof r.p_above_next !== "number") return "";
  const marker = r.too_close_to_call === true ? ` <span class="too-close" title="${escape(TOO_CLOSE_TITLE)}">Too close to call</span>` : "";
  return `<p class="next">${percent(r.p_above_next)} chance it truly outranks #${r.rank + 1}${marker}</p>`;
}

/** The images as the report shows them: each by its file name, as a data URI. */
export type ReportImages = Array<{ name: string; dataUri: string }>;

/**
 * One ranking's cards: thumbnails (the images themselves, as data URIs), score bars,
 * confidence, copy lift, the chance each outranks the next (marked when too close to call),
 * panel outcome and rationale, then the images that failed. Every text is escaped.
 */
export function rankingCards(response: Pick<RankResponse, "ranked" | "errors" | "summary">, images: ReportImages): string {
  const imageOf = (assetId: string | null) => images.find((i) => i.name === assetId);
  const cards = response.ranked.map((r) => {
    const image = imageOf(r.asset_id);
    const src = image?.dataUri ?? r.asset_url;
    // Only data URIs of images go into src: a report opened later must not fetch anything.
    const thumb = src.startsWith("data:image/") ? `<img src="${escape(src)}" alt="${escape(image?.name ?? "")}">` : "";
    const lift = r.copy_lift === null || r.copy_lift === undefined ? "" : `<p>Copy lift ${signedFixed(r.copy_lift, 2)}</p>`;
    const voters = r.panel_outcome ? panelModels(response, r.panel_outcome.winnerAssetId, r.panel_outcome.loserAssetId) : [];
    const panel = r.panel_outcome
      ? `<p>Panel: ${r.panel_outcome.votesFor} of ${r.panel_outcome.votesTotal} ${nounFor(r.panel_outcome.votesTotal, "vote")}, ${r.panel_outcome.flipped ? "order flipped" : "order kept"}${voters.length > 0 ? ` <span class="models">(${escape(voters.join(", "))})</span>` : ""}</p>`
      : "";
    return `<article><div class="rank">#${r.rank}</div>${thumb}<h2>${escape(image?.name ?? r.asset_id ?? "")}</h2>
<div class="bar"><span style="width:${(((r.score - 1) / 4) * 100).toFixed(1)}%"></span></div><p class="score">${fixed(r.score, 2)} / 5 · ${escape(r.confidence)} confidence</p>${nextCall(r)}${lift}${panel}<p class="why">${escape(r.rationale)}</p></article>`;
  });
  const failed = response.errors.map((e) => `<li>${escape(e.asset_id ?? e.asset_url.slice(0, 80))}: ${escape(e.error)}</li>`).join("");
  return `<main>${cards.join("\n")}</main>${failed ? `<h2>Failed</h2><ul>${failed}</ul>` : ""}`;
}

/** The report's head: its title, a policy that lets it load nothing from anywhere, and its styles. */
export const reportHead = (title: string, extraStyle = ""): string => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<style>body{font:15px system-ui,sans-serif;margin:2rem;color:#1d1d1f}main{display:grid;grid-template-columns:repeat(auto-fill,minmax(240px,1fr));gap:1rem}
article{border:1px solid #ddd;border-radius:10px;padding:1rem;position:relative}img{width:100%;border-radius:6px;background:#f4f4f4}
.rank{position:absolute;top:.5rem;left:.5rem;background:#111;color:#fff;border-radius:6px;padding:.1rem .5rem;font-weight:600}
.bar{height:8px;background:#eee;border-radius:4px}.bar span{display:block;height:100%;background:#2f7d4f;border-radius:4px}.why{color:#555}
.sim{display:inline-block;vertical-align:middle;background:#ffd23f;color:#1d1d1f;border:1px solid #b38600;border-radius:6px;padding:.1rem .55rem;font-size:.8rem;font-weight:700;letter-spacing:.04em;text-transform:uppercase}
.sim-note{background:#fff6d6;border-left:4px solid #ffb800;padding:.5rem .75rem}.models{color:#666;font-size:.85rem}
.next{margin:.4rem 0}.too-close{display:inline-block;background:#fde8e6;color:#9b1f17;border:1px solid #e3a59f;border-radius:6px;padding:0 .45rem;font-size:.8rem;font-weight:600;cursor:help}
${HTML_WARNINGS_STYLE}
${HTML_RECEIPT_STYLE}${extraStyle}</style></head>`;

/** The "Simulated" badge for the title, the note saying what that means, and the line naming the models; each "" when there is nothing to say. */
export function modelsHtml(models: ModelsUsed | undefined): { badge: string; warning: string; line: string } {
  const note = modelsNote(models, "scores");
  return {
    badge: note.warning ? ` <span class="sim">Simulated</span>` : "",
    warning: note.warning ? `<p class="sim-note">${escape(note.warning.replace(/^SIMULATED: (.)/, (_, c: string) => c.toUpperCase()))}</p>` : "",
    line: note.line ? `<p class="models">${escape(note.line)}</p>` : "",
  };
}

/**
 * A self-contained HTML page of a ranking: its cards (see rankingCards), the answer's warnings,
 * the models that answered, a "Simulated" badge when the offline sim model was one of them, and,
 * collapsed, how the answer was produced. Every text is escaped; fields an older server does not
 * send are left out.
 */
export function htmlReport(response: RankResponse, images: ReportImages, title: string): string {
  const s = response.summary;
  const models = modelsHtml(s.models);
  return `${reportHead(title)}
<body><h1>${escape(title)}${models.badge}</h1>${models.warning}<p>Goal ${escape(s.goal)} · audience ${escape(s.audience)} · ${s.assets_ranked} ranked · ${counted(s.credits_used, "credit")}. Scores are relative within this batch, not forecasts.</p>${models.line}${htmlWarnings(s.warnings, s.models)}
${rankingCards(response, images)}${htmlReceipt(s.method)}</body></html>
`;
}
