import { AdRankError, statusText } from "@adrank/sdk";
import { UsageError } from "./usage-error.ts";

// One line whatever the server (or a file system error) put in the text: scripts read line by line.
const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

/** The one line a failure prints, and the exit code: 2 for usage, 1 for everything else. */
export function errorLine(err: unknown): { line: string; code: number } {
  if (err instanceof UsageError) return { line: `adrank: ${oneLine(err.message)} (see adrank --help)`, code: 2 };
  if (err instanceof AdRankError) {
    const id = err.requestId ? ` (request id ${oneLine(err.requestId)})` : "";
    const field = "field" in err && err.field ? ` [${oneLine(String(err.field))}]` : "";
    const status = err.status === 0 ? "" : `${err.status} ${statusText(err.status)}: `;
    return { line: `adrank: ${status}${oneLine(err.message)}${field}${id}`, code: 1 };
  }
  return { line: `adrank: ${oneLine(err instanceof Error ? err.message : String(err))}`, code: 1 };
}
