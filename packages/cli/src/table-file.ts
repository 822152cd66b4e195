import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { parse } from "csv-parse/sync";
import { UsageError } from "./usage-error.ts";

/** One record of a CSV or JSON Lines file, with the line it ends on (for messages; a quoted cell may span lines). */
export interface TableRow {
  line: number;
  /** CSV: every value a string (empty cells are ""). JSONL: the object's values as parsed. */
  fields: Record<string, unknown>;
}

export type TableFormat = "csv" | "jsonl";

/** .jsonl and .ndjson are JSON Lines; anything else is read as CSV with a header row. */
export const tableFormatOf = (path: string): TableFormat => ([".jsonl", ".ndjson"].includes(extname(path).toLowerCase()) ? "jsonl" : "csv");

/** Parses CSV text (RFC 4180: quoted fields, embedded commas and line breaks; a header row names the columns). */
export function parseCsv(text: string, source: string): TableRow[] {
  let records: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    records = parse(text.replace(/^\uFEFF/, ""), { columns: (header: string[]) => header.map((h) => h.trim()), skip_empty_lines: true, trim: true, info: true, relax_column_count: false }) as never;
  } catch (err) {
    throw new UsageError(`${source} is not valid CSV: ${(err as Error).message}`);
  }
  return records.map(({ record, info }) => ({ line: info.lines, fields: record }));
}

/** Parses JSON Lines: one JSON object per non-blank line. */
export function parseJsonLines(text: string, source: string): TableRow[] {
  const rows: TableRow[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw new UsageError(`${source} line ${i + 1} is not JSON`);
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new UsageError(`${source} line ${i + 1} is not a JSON object`);
    rows.push({ line: i + 1, fields: value as Record<string, unknown> });
  });
  return rows;
}

/** Reads a CSV or JSON Lines file by its extension. An unreadable or empty file is a usage error. */
export async function readTableFile(path: string): Promise<TableRow[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(code === "ENOENT" ? `no such file: ${path}` : `cannot read ${path} (${code ?? "error"})`);
  }
  const rows = tableFormatOf(path) === "jsonl" ? parseJsonLines(text, path) : parseCsv(text, path);
  if (rows.length === 0) throw new UsageError(`${path} has no records`);
  return rows;
}
