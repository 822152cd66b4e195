import { AdRankError, RequestFailedError, statusText } from "@adrank/sdk";
import { notTheApiHint } from "./not-the-api.ts";
import { failedLine } from "./request-progress.ts";
import { UsageError } from "./usage-error.ts";

// One line whatever the server (or a file system error) put in the text: scripts read line by line.
const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

/**
 * The one line a failure prints, and the exit code: 2 for usage, 1 for everything else.
 * Given the base URL, an answer that is not the API's (the console's, say) says so instead.
 */
export function errorLine(err: unknown, baseUrl?: string): { line: string; code: number } {
  if (err instanceof UsageError) return { line: `adrank: ${oneLine(err.message)}${err.seeHelp ? " (see adrank --help)" : ""}`, code: 2 };
  const hint = baseUrl === undefined ? null : notTheApiHint(err, baseUrl);
  if (hint) return { line: `adrank: ${oneLine(hint)}`, code: 1 };
  // Its status is the 200 of the look that saw it fail: the request's own sentence says more.
  if (err instanceof RequestFailedError) return { line: `adrank: ${oneLine(failedLine(err.request))}`, code: 1 };
  if (err instanceof AdRankError) {
    const id = err.requestId ? ` (request id ${oneLine(err.requestId)})` : "";
    const field = "field" in err && err.field ? ` [${oneLine(String(err.field))}]` : "";
    const status = err.status === 0 ? "" : `${err.status} ${statusText(err.status)}: `;
    return { line: `adrank: ${status}${oneLine(err.message)}${field}${id}`, code: 1 };
  }
  return { line: `adrank: ${oneLine(err instanceof Error ? err.message : String(err))}`, code: 1 };
}
