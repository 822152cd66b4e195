import type { AnswerWarning, RankAudiencesResponse } from "@adrank/sdk";
import { NO_REVERSALS, noDifferenceSentence, reversalSentence, sensitivitySentence, type NameOf } from "./audience-comparison-text.ts";
import { escapeHtml as escape } from "./eval/html/escape.ts";
import { audienceChart, colourOf, HTML_CHART_STYLE } from "./html-audience-chart.ts";
import { htmlReceipt } from "./html-receipt.ts";
import { modelsHtml, rankingCards, reportHead, type ReportImages } from "./html-report.ts";
import { htmlWarnings } from "./html-warnings.ts";
import { counted } from "./plural.ts";

const STYLE = `
${HTML_CHART_STYLE}
.audience{margin-top:2.5rem;padding-top:1rem;border-top:3px solid var(--c)}.audience>h2{display:flex;align-items:center;gap:.5rem}
.reversals li,.sensitivity li{margin:.3rem 0}.no-difference{background:#fdf1e7;border-left:4px solid #d9822b;border-radius:6px;padding:.3rem .6rem;list-style:none;margin-left:-1.1rem}`;

const imageName: NameOf = (id, url) => id ?? url.slice(0, 40);

const sameWarning = (a: AnswerWarning, b: AnswerWarning) => a.code === b.code && a.message === b.message;

/**
 * A self-contained HTML page of a ranking across audiences: the chart of each creative's score
 * per audience (see audienceChart), the reversals and how alike each pair of audiences ranked,
 * then each audience's own ranking as the one-audience report shows it, with its warnings and
 * receipt. The warnings of no one audience (that a persona made no difference) stand at the top.
 * Every text is escaped: audience names and file names are the user's.
 */
export function htmlAudiencesReport(response: RankAudiencesResponse, images: ReportImages, title: string): string {
  const s = response.summary;
  const models = modelsHtml(s.models);
  const own = response.by_audience.flatMap((a) => a.summary.warnings ?? []);
  const general = s.warnings.filter((w) => !own.some((o) => sameWarning(o, w)));

  const reversals =
    response.reversals.length > 0
      ? `<p>Two audiences order two creatives the other way round, each order beyond noise (scores before close-pair refinement):</p><ol class="reversals">${response.reversals.map((r) => `<li>${escape(reversalSentence(r, imageName))}</li>`).join("")}</ol>`
      : `<p>${escape(NO_REVERSALS)}</p>`;
  const sensitivity = response.audience_sensitivity
    .map((p) => `<li>${escape(sensitivitySentence(p))}</li>${p.persona_made_no_difference ? `<li class="no-difference">${escape(noDifferenceSentence(p))}</li>` : ""}`)
    .join("");

  const sections = response.by_audience.map((a, j) => {
    const saved = a.audience_id === null ? "" : ` · saved audience <code>${escape(a.audience_id)}</code>`;
    return `<section class="audience" style="--c:${colourOf(j)}"><h2><span class="swatch" style="background:${colourOf(j)}"></span>For ${escape(a.audience)}</h2>
<p>${a.summary.assets_ranked} ranked · ${counted(a.summary.credits_used, "credit")}${saved}</p>${htmlWarnings(a.summary.warnings, s.models)}
${rankingCards(a, images)}${htmlReceipt(a.summary.method)}</section>`;
  });

  return `${reportHead(title, STYLE)}
<body><h1>${escape(title)}${models.badge}</h1>${models.warning}<p>Goal ${escape(s.goal)} · ${counted(response.by_audience.length, "audience")} · ${s.assets_ranked} ranked · ${counted(s.credits_used, "credit")}. Scores are relative within each audience's batch, not forecasts.</p>${models.line}${htmlWarnings(general, s.models)}
<h2>Score per audience</h2>${audienceChart(response, images, imageName)}
<h2>Reversals</h2>${reversals}
<h2>Audience sensitivity</h2><ul class="sensitivity">${sensitivity}</ul>
${sections.join("\n")}</body></html>
`;
}
