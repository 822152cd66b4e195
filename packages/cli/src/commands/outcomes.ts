import { AdRankError, checkOutcomes, METRIC_NAME_PATTERN, OUTCOMES_PER_REQUEST_MAX, type AdRankClient, type RecordOutcomesInput, type RecordOutcomesResponse } from "@adrank/sdk";
import { errorLine } from "../error-line.ts";
import { DECIMAL } from "../eval/dataset-cells.ts";
import { jsonOutput } from "../json-output.ts";
import { parseFlags } from "../parse-flags.ts";
import { counted } from "../plural.ts";
import { clientOf, settingsFromEnv } from "../settings.ts";
import { closestMatch } from "../suggestion.ts";
import { readTableFile, type TableRow } from "../table-file.ts";
import { UsageError } from "../usage-error.ts";

export const OUTCOMES_HELP = `adrank outcomes <file.csv|file.jsonl> [--metric <name>] [--json]

Records what the creatives of your rankings did once they ran (their click-through rate, say),
so that adrank calibration can tell how well the scores predicted it. One row per creative; a
CSV file has a header row, a .jsonl file one JSON object per line, with:
  request_id     the ranking's request id (in rank --json, or what rank --async prints)
  asset_id       the creative's id in that ranking (for adrank rank: its file name)
  value          what it did, higher is better, e.g. 0.0184 (a column named outcome works too)
  metric         what was measured, e.g. ctr (else --metric)
  impressions    how many impressions the value was measured over (optional)
Every row is checked before anything is sent (a mistake names the file, line and column), then
sent in batches of ${OUTCOMES_PER_REQUEST_MAX}. Prints "3 created, 0 updated, 0 unchanged": a row recorded again
with the same value changes nothing, so running the command twice is safe. Costs no credits.

  --metric <name>               the metric of rows without one: lowercase letters, digits and _,
                                e.g. ctr or conversion_rate
  --json                        print the API's answer (the batches' answers merged into one)`;

const OUTCOMES_OPTIONS = { metric: { type: "string" }, json: { type: "boolean" } } as const;

const COLUMNS = ["request_id", "asset_id", "value", "outcome", "metric", "impressions"];

/** --metric, or a metric cell: a name the API accepts (checked here so a typo costs no call). */
export function checkMetricName(metric: string, where: string): void {
  if (!METRIC_NAME_PATTERN.test(metric)) {
    throw new UsageError(`${where} "${metric}" is not a metric name: use 1 to 40 lowercase letters, digits or underscores, starting with a letter (e.g. ctr, conversion_rate)`, { seeHelp: false });
  }
}

type Outcome = RecordOutcomesInput["outcomes"][number];
/** An outcome with the line of the file it came from. */
interface OutcomeRow {
  line: number;
  outcome: Outcome;
}

/** A cell as a number when it is written as one; anything else is left for the schema to name. */
const numberCell = (cell: unknown): unknown => (typeof cell === "string" && DECIMAL.test(cell.trim()) ? Number(cell.trim()) : cell);
const blank = (cell: unknown) => cell === undefined || cell === null || (typeof cell === "string" && cell.trim() === "");

/**
 * The outcome of one row of the file, checked with the API's own schema; every mistake is a
 * UsageError naming the file, the line and the column.
 */
function outcomeOf(row: TableRow, file: string, metricFlag: string | undefined): Outcome {
  const at = `${file}:${row.line}`;
  const { fields } = row;
  if (!blank(fields.value) && !blank(fields.outcome)) throw new UsageError(`${at}: give value or outcome, not both`, { seeHelp: false });
  const valueCell = blank(fields.value) ? fields.outcome : fields.value;
  if (blank(valueCell)) throw new UsageError(`${at}: value is empty`, { seeHelp: false });
  const value = numberCell(valueCell);
  if (typeof valueCell === "string" && typeof value === "string") throw new UsageError(`${at}: value "${valueCell}" is not a number`, { seeHelp: false });
  const metric = blank(fields.metric) ? metricFlag : fields.metric;
  if (metric === undefined) throw new UsageError(`${at}: no metric: add a metric column or pass --metric (e.g. --metric ctr)`, { seeHelp: false });
  if (typeof metric === "string" && blank(fields.metric) === false) checkMetricName(metric, `${at}: metric`);
  const outcome = {
    request_id: typeof fields.request_id === "string" ? fields.request_id.trim() : fields.request_id,
    asset_id: fields.asset_id,
    metric,
    value,
    ...(blank(fields.impressions) ? {} : { impressions: numberCell(fields.impressions) }),
  };
  const checked = checkOutcomes({ outcomes: [outcome] });
  if (!checked.ok) {
    // The API's sentence names outcomes[0].<column>: here that is the row's column.
    const column = checked.field?.replace(/^outcomes\[0\]\.?/, "") ?? "";
    throw new UsageError(`${at}: ${checked.error.replace(/^outcomes\[0\]\.?/, "")}${column && !checked.error.includes(column) ? ` [${column}]` : ""}`, { seeHelp: false });
  }
  return checked.value.outcomes[0]!;
}

/** Every row of the file as an outcome, or the first mistake; a repeated (request_id, asset_id, metric) is one. */
export async function readOutcomesFile(file: string, metricFlag: string | undefined): Promise<OutcomeRow[]> {
  const rows = await readTableFile(file);
  const columns = new Set(rows.flatMap((r) => Object.keys(r.fields)));
  for (const required of ["request_id", "asset_id"]) {
    if (!columns.has(required)) throw new UsageError(`${file} has no ${required} column${suggestColumn(columns, required)}`, { seeHelp: false });
  }
  if (!columns.has("value") && !columns.has("outcome")) throw new UsageError(`${file} has no value column (or outcome)${suggestColumn(columns, "value")}`, { seeHelp: false });
  // Other columns are ignored (exports carry many), unless one looks like a misspelling of a
  // column the file lacks ("impresions" would otherwise drop every impression silently).
  for (const column of columns) {
    const meant = COLUMNS.includes(column) ? null : closestMatch(column, COLUMNS);
    if (meant !== null && !columns.has(meant) && !(meant === "outcome" && columns.has("value")) && !(meant === "value" && columns.has("outcome"))) throw new UsageError(`${file} has a column "${column}"; did you mean "${meant}"?`, { seeHelp: false });
  }
  const seen = new Map<string, number>();
  return rows.map((row) => {
    const outcome = outcomeOf(row, file, metricFlag);
    const key = JSON.stringify([outcome.request_id, outcome.asset_id, outcome.metric]);
    const first = seen.get(key);
    if (first !== undefined) throw new UsageError(`${file}:${row.line}: repeats line ${first} (the same request_id, asset_id and metric); keep one of them`, { seeHelp: false });
    seen.set(key, row.line);
    return { line: row.line, outcome };
  });
}

function suggestColumn(columns: Set<string>, wanted: string): string {
  const close = [...columns].find((c) => closestMatch(c, [wanted]) !== null);
  return close === undefined ? "" : `; is "${close}" meant to be ${wanted}?`;
}

/** The batches' answers as one answer of the same shape. */
const merged = (answers: RecordOutcomesResponse[]): RecordOutcomesResponse => ({
  created: answers.reduce((n, a) => n + a.created, 0),
  updated: answers.reduce((n, a) => n + a.updated, 0),
  unchanged: answers.reduce((n, a) => n + a.unchanged, 0),
  outcomes: answers.flatMap((a) => a.outcomes),
});

/**
 * Sends the rows in batches of OUTCOMES_PER_REQUEST_MAX. A refused batch is recorded not at
 * all (the API's batches are atomic): its error names the file's line, and says which rows the
 * batches before it recorded.
 */
async function recordAll(client: AdRankClient, rows: OutcomeRow[], file: string, err: NodeJS.WriteStream): Promise<RecordOutcomesResponse[]> {
  const answers: RecordOutcomesResponse[] = [];
  for (let start = 0; start < rows.length; start += OUTCOMES_PER_REQUEST_MAX) {
    const batch = rows.slice(start, start + OUTCOMES_PER_REQUEST_MAX);
    try {
      answers.push((await client.outcomes.record({ outcomes: batch.map((r) => r.outcome) })).data);
    } catch (e) {
      if (!(e instanceof AdRankError)) throw e;
      const field = "field" in e && typeof e.field === "string" ? /^outcomes\[(\d+)\]/.exec(e.field) : null;
      const line = field ? batch[Number(field[1])]?.line : undefined;
      const before = start === 0 ? "" : ` ${counted(start, "row")} before line ${batch[0]!.line} were recorded; the command can be run again once this is fixed, as recording a row twice changes nothing.`;
      throw new Error(`${line === undefined ? file : `${file}:${line}`}: ${errorLine(e).line.replace(/^adrank: /, "")}${before}`, { cause: e });
    }
    if (rows.length > OUTCOMES_PER_REQUEST_MAX) err.write(`recorded ${Math.min(start + OUTCOMES_PER_REQUEST_MAX, rows.length)} of ${rows.length} outcomes\n`);
  }
  return answers;
}

export async function outcomesCommand(args: string[], env: NodeJS.ProcessEnv, out: NodeJS.WriteStream, err: NodeJS.WriteStream = process.stderr): Promise<void> {
  const { values, positionals } = parseFlags(args, OUTCOMES_OPTIONS, { allowPositionals: true });
  if (positionals.length === 0) throw new UsageError("give the CSV or JSON Lines file of outcomes");
  if (positionals.length > 1) throw new UsageError(`give one file, not ${positionals.length}`);
  if (values.metric !== undefined) checkMetricName(values.metric, "--metric");
  const client = clientOf(settingsFromEnv(env));
  const rows = await readOutcomesFile(positionals[0]!, values.metric);
  const answer = merged(await recordAll(client, rows, positionals[0]!, err));
  if (values.json) return void out.write(jsonOutput(answer));
  out.write(`${answer.created} created, ${answer.updated} updated, ${answer.unchanged} unchanged\n`);
  const simulated = answer.outcomes.filter((o) => o.simulated).length;
  if (simulated > 0) out.write(`SIMULATED: ${simulated} of ${counted(answer.outcomes.length, "outcome")} belong to rankings scored by the offline sim model; calibration over them measures the harness, not a model.\n`);
}
