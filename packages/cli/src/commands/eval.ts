import { stat, writeFile } from "node:fs/promises";
import { basename, dirname, extname, resolve } from "node:path";
import { METRIC_NAME_PATTERN } from "@adrank/sdk";
import { checkAssetType, checkGoal } from "../closed-list-flags.ts";
import { evalResultOf } from "../eval/assemble-result.ts";
import { readEvalDataset, type EvalDataset } from "../eval/dataset.ts";
import type { EvalResult } from "../eval/eval-result.ts";
import { figuresTable } from "../eval/figures-table.ts";
import { evalReportHtml } from "../eval/html/eval-report.ts";
import { planOf } from "../eval/plan.ts";
import { runEval } from "../eval/run.ts";
import type { EvalSettings } from "../eval/run-settings.ts";
import { deleteState, newState, readState, statePathOf } from "../eval/state.ts";
import { readImageFile } from "../image-file.ts";
import { wantsColour } from "../models-note.ts";
import { parseFlags } from "../parse-flags.ts";
import { counted } from "../plural.ts";
import { checkReportPath } from "../report-path.ts";
import { audienceOf, type AudienceFlags } from "../requests/audience-from-flags.ts";
import { clientOf, settingsFromEnv } from "../settings.ts";
import { UsageError } from "../usage-error.ts";
import { AUDIENCE_OPTIONS } from "./audience-flags.ts";

export { EVAL_HELP } from "./eval-help.ts";


const EVAL_OPTIONS = {
  ...AUDIENCE_OPTIONS,
  metric: { type: "string" },
  goal: { type: "string" },
  "asset-type": { type: "string" },
  platform: { type: "string" },
  refine: { type: "boolean" },
  out: { type: "string" },
  html: { type: "string" },
  fresh: { type: "boolean" },
  "record-outcomes": { type: "boolean" },
  json: { type: "boolean" },
} as const;

const DEFAULT_METRIC = "outcome";

/** The flags' audience, which only rows without one of their own use; none is fine when every row has one. */
function defaultAudience(values: AudienceFlags): EvalSettings["audience"] {
  if (values["audience-id"] === undefined && values["audience-name"] === undefined) {
    if (values["audience-description"] !== undefined) throw new UsageError("--audience-description goes with --audience-name");
    return null;
  }
  const chosen = audienceOf(values);
  return "audience_id" in chosen ? { id: chosen.audience_id } : { name: chosen.audience.name, description: chosen.audience.description ?? null };
}

async function checkOutPath(path: string): Promise<void> {
  const dir = await stat(dirname(resolve(path))).catch(() => null);
  if (!dir?.isDirectory()) throw new UsageError(`--out ${path}: the folder ${dirname(path)} does not exist`);
  if ((await stat(path).catch(() => null))?.isDirectory()) throw new UsageError(`--out ${path}: is a folder, give a file name`);
}

/** The report's thumbnails: each file image as a data URI, by point id (outcomes) or by the image as written (pairs). */
async function thumbnailsOf(dataset: EvalDataset): Promise<Map<string, string>> {
  const files = dataset.kind === "outcomes" ? dataset.rows.map((r) => ({ key: r.id, source: r.source })) : dataset.rows.flatMap((r) => [r.a, r.b].map((side) => ({ key: side.image, source: side.source })));
  const thumbnails = new Map<string, string>();
  for (const { key, source } of files) {
    if (source.kind !== "file" || thumbnails.has(key)) continue;
    // A file gone since it was scored only loses its thumbnail.
    const image = await readImageFile(source.path).catch(() => null);
    if (image) thumbnails.set(key, image.dataUri);
  }
  return thumbnails;
}

/** Whether anything at all was scored: with nothing, the figures are no measurement. */
const scoredAnything = (result: EvalResult) => (result.outcomes?.groups.some((g) => g.points.length > 0) ?? false) || (result.pairs?.completed ?? 0) > 0;

export async function evalCommand(args: string[], env: NodeJS.ProcessEnv, out: NodeJS.WriteStream, err: NodeJS.WriteStream = process.stderr): Promise<void> {
  const { values, positionals } = parseFlags(args, EVAL_OPTIONS, { allowPositionals: true, allowNegative: true });
  // Every local check before the first request, which costs credits; the cheap ones first.
  if (positionals.length === 0) throw new UsageError("give the dataset: a .csv or .jsonl file of labelled creatives");
  if (positionals.length > 1) throw new UsageError(`give one dataset, not ${positionals.length} (${positionals.join(" ")})`);
  const datasetPath = positionals[0]!;
  checkGoal(values.goal);
  checkAssetType(values["asset-type"]);
  const audience = defaultAudience(values);
  const metric = values.metric ?? DEFAULT_METRIC;
  // The API's rule for metric names (POST /api/v1/outcomes), checked before anything is paid for.
  if (!METRIC_NAME_PATTERN.test(metric)) throw new UsageError(`--metric "${metric}": 1 to 40 lowercase letters, digits or underscores, starting with a letter (e.g. ctr, conversion_rate)`);
  const api = settingsFromEnv(env);
  const outPath = values.out ?? `${basename(datasetPath, extname(datasetPath))}.eval.json`;
  await checkOutPath(outPath);
  if (values.html) await checkReportPath(values.html);

  const dataset = await readEvalDataset(datasetPath, { ...(values.goal ? { goal: values.goal } : {}), ...(audience ? { audience: "id" in audience ? { id: audience.id } : { name: audience.name } } : {}) });
  if (dataset.kind === "pairs" && values["record-outcomes"]) throw new UsageError(`--record-outcomes needs outcome rows; ${datasetPath} holds labelled pairs`);
  if (dataset.kind === "pairs" && values.metric !== undefined) throw new UsageError(`--metric names the outcome column; ${datasetPath} holds labelled pairs`);
  // POST /api/v1/outcomes records against rank requests only: recording ranks each audience alone.
  const plan = planOf(dataset, { sideBySide: !values["record-outcomes"] });
  const settings: EvalSettings = {
    base_url: api.baseUrl,
    goal: values.goal ?? null,
    audience,
    asset_type: values["asset-type"] ?? null,
    platform: values.platform ?? null,
    refine: values.refine !== false,
  };

  const statePath = statePathOf(outPath);
  const earlier = values.fresh ? { state: null, note: null } : await readState(statePath, dataset.sha256, settings, plan);
  if (earlier.note) err.write(`${earlier.note}\n`);
  if (values.fresh && (await stat(statePath).catch(() => null))) err.write(`--fresh: starting over; the earlier run's answers in ${statePath} are dropped\n`);
  const state = earlier.state ?? newState(dataset.sha256, settings, plan);
  const creditsBefore = state.done.reduce((sum, f) => sum + f.credits_used, 0);
  if (earlier.state) err.write(`resuming: ${state.done.length} of ${counted(plan.requests.length, "request")} already done (${counted(creditsBefore, "credit")}), from ${statePath}\n`);

  let report;
  try {
    report = await runEval({ plan, state, statePath, recordMetric: values["record-outcomes"] ? metric : null }, { clientOf: (onRetry) => clientOf(api, onRetry), err });
  } catch (error) {
    const done = state.done.length;
    err.write(`stopped after ${done} of ${counted(plan.requests.length, "request")}; the answers so far are kept in ${statePath}: run the same command again to resume\n`);
    throw error;
  }

  const result = evalResultOf(dataset, plan, report.finished, { base_url: api.baseUrl, refine: settings.refine, metric: dataset.kind === "outcomes" ? metric : null, started_at: state.started_at, finished_at: new Date().toISOString() });
  await writeFile(outPath, `${JSON.stringify(result, null, 2)}\n`);
  if (values.html) await writeFile(values.html, evalReportHtml(result, await thumbnailsOf(dataset)));
  await deleteState(statePath);

  const lines = values.json ? [] : [...figuresTable(result, { colour: wantsColour(out, env) }), ""];
  const earlierPart = report.resumed > 0 ? ` (${creditsBefore} of them by the ${counted(report.resumed, "request")} the run it resumed had finished)` : "";
  lines.push(`${counted(result.credits_used, "credit")} used over ${counted(result.requests, "request")}${earlierPart}`);
  if (values["record-outcomes"]) lines.push(`${counted(report.recorded, "outcome")} recorded under metric "${metric}" (see adrank calibration, or GET /api/v1/calibration)`);
  lines.push(`result written to ${outPath}`);
  if (values.html) lines.push(`report written to ${values.html}`);
  // With --json, stdout is the result alone; the rest goes to stderr.
  if (values.json) {
    out.write(`${JSON.stringify(result, null, 2)}\n`);
    err.write(`${lines.join("\n")}\n`);
  } else {
    out.write(`${lines.join("\n")}\n`);
  }
  if (!scoredAnything(result)) {
    const first = result.outcomes?.failed[0];
    throw new Error(`nothing could be scored${first ? `: every creative failed (first: ${first.image || first.id}: ${first.error})` : ": no panel completed"}`);
  }
}
