import { stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { UsageError } from "./usage-error.ts";

/** Checks that a report can be written there before the ranking is paid for. */
export async function checkReportPath(path: string): Promise<void> {
  const dir = await stat(dirname(resolve(path))).catch(() => null);
  if (!dir?.isDirectory()) throw new UsageError(`--html ${path}: the folder ${dirname(path)} does not exist`);
  const existing = await stat(path).catch(() => null);
  if (existing?.isDirectory()) throw new UsageError(`--html ${path}: is a folder, give a file name`);
}
