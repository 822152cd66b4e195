import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { LIMITS } from "@adrank/sdk";
import { checkGoal } from "../closed-list-flags.ts";
import { readTableFile, tableFormatOf, type TableRow } from "../table-file.ts";
import { UsageError } from "../usage-error.ts";
import { numberCell, stringMapCell, textCell, type Cell } from "./dataset-cells.ts";
import { COPY_COLUMNS, kindOfColumns, unknownColumnsProblem, type DatasetKind } from "./dataset-columns.ts";
import { resolveImageSource, type ImageSource } from "./image-source.ts";

export type { ImageSource } from "./image-source.ts";

export type EvalAudience = { name: string } | { id: string };

/** The group a row is ranked in: rows of one group go to the API together. */
export interface EvalGroupKey {
  campaign: string | null;
  audience: EvalAudience;
  goal: string;
}

export interface OutcomeRow {
  line: number;
  /** The asset id sent: the row's `id`, else the image's file name, or the URL. Unique in the file. */
  id: string;
  /** The image as the dataset writes it. */
  image: string;
  source: ImageSource;
  outcome: number;
  /** copy_context (adHeadline, adBody, …), or null when the row has none. */
  copy: Record<string, string> | null;
  group: EvalGroupKey;
}

export interface PairSide {
  image: string;
  source: ImageSource;
}

export interface PairRow {
  line: number;
  a: PairSide;
  b: PairSide;
  winner: "a" | "b";
  group: EvalGroupKey;
}

export type EvalDataset = { path: string; sha256: string; format: "csv" | "jsonl" } & ({ kind: "outcomes"; rows: OutcomeRow[] } | { kind: "pairs"; rows: PairRow[] });

/** What the command's flags give rows that leave a group column empty. */
export interface DatasetDefaults {
  goal?: string;
  audience?: EvalAudience;
}

/** The API's default goal, used when neither the row nor --goal names one. */
const DEFAULT_GOAL = "purchase-intent";

/** "campaign / audience / goal", the campaign left out when the row has none. */
export function groupLabel(key: EvalGroupKey): string {
  const audience = "name" in key.audience ? key.audience.name : key.audience.id;
  return [key.campaign, audience, key.goal].filter((part) => part !== null).join(" / ");
}

/**
 * Reads a labelled dataset (CSV with a header row, or JSON Lines) for `adrank eval`: outcome
 * rows (image, outcome, optional id, copy and group columns) or labelled pairs (image_a,
 * image_b, winner). Everything that would fail later, or silently skew the figures, is refused
 * now with a UsageError naming the file and line: no credit is spent on a dataset with a typo.
 */
export async function readEvalDataset(path: string, defaults: DatasetDefaults): Promise<EvalDataset> {
  checkGoal(defaults.goal);
  const records = await readTableFile(path);
  // Hashed after parsing succeeded: two runs with the same hash read the same bytes.
  const sha256 = createHash("sha256")
    .update(await readFile(path))
    .digest("hex");
  const format = tableFormatOf(path);
  const kind = datasetKind(path, format, records);
  const reader = new RowReader(path, defaults);
  const common = { path, sha256, format };
  if (kind === "pairs") {
    const rows: PairRow[] = [];
    for (const record of records) rows.push(await reader.pairRow(record));
    return { ...common, kind, rows };
  }
  const rows: OutcomeRow[] = [];
  for (const record of records) rows.push(await reader.outcomeRow(record));
  return { ...common, kind, rows };
}

const REQUIRED_COLUMNS: Record<DatasetKind, string[]> = { outcomes: ["image", "outcome"], pairs: ["image_a", "image_b", "winner"] };

/** The kind of the file, from its header (CSV) or every line's keys (JSON Lines, where lines may differ). */
function datasetKind(path: string, format: "csv" | "jsonl", records: TableRow[]): DatasetKind {
  const first = records[0]!;
  if (format === "csv") {
    const columns = Object.keys(first.fields);
    const unknown = unknownColumnsProblem(columns);
    if (unknown !== null) throw new UsageError(`${path} line 1: ${unknown}`);
    if (columns.includes("copy")) throw new UsageError(`${path} line 1: a copy column is for JSON Lines (an object of copy_context keys); in CSV give the columns ${Object.keys(COPY_COLUMNS).join(", ")}`);
    const kind = kindOfColumns(columns);
    if (kind !== "outcomes" && kind !== "pairs") throw new UsageError(`${path} line 1: the header ${kind}`);
    const missing = REQUIRED_COLUMNS[kind].filter((c) => !columns.includes(c));
    if (missing.length > 0) throw new UsageError(`${path} line 1: the header has no ${missing.join(" or ")} column; ${kind === "pairs" ? "labelled pairs need image_a, image_b and winner" : "outcome rows need image and outcome"}`);
    return kind;
  }
  let kind: DatasetKind | null = null;
  for (const { line, fields } of records) {
    const columns = Object.keys(fields);
    const unknown = unknownColumnsProblem(columns);
    if (unknown !== null) throw new UsageError(`${path} line ${line}: ${unknown}`);
    const lineKind = kindOfColumns(columns);
    if (lineKind !== "outcomes" && lineKind !== "pairs") throw new UsageError(`${path} line ${line}: ${lineKind}`);
    if (kind !== null && lineKind !== kind) {
      throw new UsageError(`${path} line ${line}: a labelled ${lineKind === "pairs" ? "pair" : "outcome"} row in a file of ${kind === "pairs" ? "labelled pairs" : "outcome rows"}; put outcome rows and labelled pairs in two files`);
    }
    kind = lineKind;
  }
  return kind!;
}

/** Reads rows one by one, each failure a UsageError naming the file and line. */
class RowReader {
  private readonly path: string;
  private readonly defaults: DatasetDefaults;
  private readonly folder: string;
  /** The line of each asset id read so far. */
  private readonly ids = new Map<string, number>();

  constructor(path: string, defaults: DatasetDefaults) {
    this.path = path;
    this.defaults = defaults;
    // Relative image paths are relative to the dataset, wherever the command runs.
    this.folder = dirname(resolve(path));
  }

  private fail(line: number, problem: string): never {
    throw new UsageError(`${this.path} line ${line}: ${problem}`);
  }

  private get<T>(line: number, cell: Cell<T>): T | null {
    if ("problem" in cell) this.fail(line, cell.problem);
    return cell.value;
  }

  private required<T>(line: number, fields: Record<string, unknown>, read: (fields: Record<string, unknown>, column: string) => Cell<T>, column: string, what: string): T {
    const value = this.get(line, read(fields, column));
    if (value === null) this.fail(line, `${column in fields ? `${column} is empty` : `has no ${column}`}; give ${what}`);
    return value;
  }

  private async side(line: number, fields: Record<string, unknown>, column: string): Promise<PairSide> {
    const image = this.required(line, fields, textCell, column, "an image file path or an https:// URL");
    const source = await resolveImageSource(image, this.folder);
    if (typeof source === "string") this.fail(line, `${column}: ${source}`);
    return { image, source };
  }

  private group(line: number, fields: Record<string, unknown>): EvalGroupKey {
    const campaign = this.get(line, textCell(fields, "campaign"));
    const name = this.get(line, textCell(fields, "audience"));
    const id = this.get(line, textCell(fields, "audience_id"));
    if (name !== null && id !== null) this.fail(line, "gives both audience and audience_id; a row is ranked for one audience: leave one of them empty");
    const audience = name !== null ? { name } : id !== null ? { id } : this.defaults.audience;
    if (audience === undefined) this.fail(line, "has no audience; give an audience (name) or audience_id column, or pass --audience-name or --audience-id");
    if ("name" in audience && audience.name.length > LIMITS.audienceNameMaxChars) this.fail(line, `audience is longer than ${LIMITS.audienceNameMaxChars} characters`);
    const goal = this.get(line, textCell(fields, "goal")) ?? this.defaults.goal ?? DEFAULT_GOAL;
    try {
      checkGoal(goal);
    } catch (err) {
      if (err instanceof UsageError) this.fail(line, err.message);
      throw err;
    }
    return { campaign, audience, goal };
  }

  private copy(line: number, fields: Record<string, unknown>): Record<string, string> | null {
    const object = this.get(line, stringMapCell(fields, "copy"));
    const columns: Record<string, string> = {};
    for (const [column, key] of Object.entries(COPY_COLUMNS)) {
      const text = this.get(line, textCell(fields, column));
      if (text !== null) columns[key] = text;
    }
    const fromColumns = Object.keys(columns).length > 0 ? columns : null;
    if (object !== null && fromColumns !== null) this.fail(line, `gives both a copy object and copy columns (${Object.keys(COPY_COLUMNS).join(", ")}); use one of them`);
    return object ?? fromColumns;
  }

  async outcomeRow({ line, fields }: TableRow): Promise<OutcomeRow> {
    const { image, source } = await this.side(line, fields, "image");
    const outcome = this.required(line, fields, numberCell, "outcome", "the observed result as a number, higher is better (such as a click-through rate)");
    const id = this.get(line, textCell(fields, "id")) ?? (source.kind === "file" ? basename(source.path) : source.url);
    if (id.length > LIMITS.idMaxChars) this.fail(line, `the id "${id.slice(0, 40)}…" is longer than the ${LIMITS.idMaxChars} characters an asset id may have; give a shorter one in an id column`);
    // Unique in the file: a repeated id would make two creatives indistinguishable in the results.
    const earlier = this.ids.get(id);
    if (earlier !== undefined) this.fail(line, `the id "${id}" repeats line ${earlier}; ids must be unique (an image used twice, or two images with the same file name, needs an id column)`);
    this.ids.set(id, line);
    return { line, id, image, source, outcome, copy: this.copy(line, fields), group: this.group(line, fields) };
  }

  async pairRow({ line, fields }: TableRow): Promise<PairRow> {
    const a = await this.side(line, fields, "image_a");
    const b = await this.side(line, fields, "image_b");
    if (sameImage(a.source, b.source)) this.fail(line, `image_a and image_b are the same image (${a.image}); a pair compares two creatives`);
    const winner = this.required(line, fields, textCell, "winner", "a or b, the image that did better").toLowerCase();
    if (winner !== "a" && winner !== "b") this.fail(line, `winner "${winner}" must be a or b (the image that did better)`);
    return { line, a, b, winner, group: this.group(line, fields) };
  }
}

const sameImage = (a: ImageSource, b: ImageSource) => (a.kind === "file" && b.kind === "file" ? a.path === b.path : a.kind === "url" && b.kind === "url" && a.url === b.url);
