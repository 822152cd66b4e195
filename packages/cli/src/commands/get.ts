import { NotFoundError, type AdRankClient } from "@adrank/sdk";
import { jsonOutput } from "../json-output.ts";
import { wantsColour } from "../models-note.ts";
import { parseFlags } from "../parse-flags.ts";
import { startProgress } from "../progress.ts";
import { failedLine, stillRunningLine } from "../request-progress.ts";
import { resultOutput, type OutputOptions } from "../result-output.ts";
import { clientOf, settingsFromEnv } from "../settings.ts";
import { UsageError } from "../usage-error.ts";
import { waitForRequest } from "../wait-for-request.ts";

export const GET_HELP = `adrank get <request id> [--wait] [--json]

Fetches a rank, rank-across-audiences or pairwise request by its id (the one rank --async and
pairwise --async print; kept 30 days). A finished request prints as rank or pairwise print their
result (a ranking for several audiences as its matrix); one still running prints "Request <id> is
still running: 3 of 8 assets done." (for several audiences, "4 of 9 scorings": one asset for one
audience) and exits 0, or with --wait
waits for it, showing progress on stderr, then prints the result. A request that failed prints
why, and an unknown id says so; both exit 1.

  --wait                        wait for a running request and print its result
  --json                        print the API's JSON (the result, or the request's status while it
                                runs or after it failed), data URIs shortened as for rank`;

const GET_OPTIONS = { wait: { type: "boolean" }, json: { type: "boolean" } } as const;

// Request ids are UUIDs: anything else is a typo, answered without a call.
const REQUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function getCommand(args: string[], env: NodeJS.ProcessEnv, out: NodeJS.WriteStream, err: NodeJS.WriteStream = process.stderr): Promise<void> {
  const { values, positionals } = parseFlags(args, GET_OPTIONS, { allowPositionals: true });
  if (positionals.length === 0) throw new UsageError("give the request id that rank --async or pairwise --async printed");
  if (positionals.length > 1) throw new UsageError(`give one request id, not ${positionals.length}`);
  const id = positionals[0]!.trim();
  if (!REQUEST_ID.test(id)) throw new UsageError(`"${id}" is not a request id; request ids look like 7d0c2f8e-4f6b-4a43-9a55-1b1d6c3b2a10`, { seeHelp: false });
  const client = clientOf(settingsFromEnv(env));
  const options: OutputOptions = { json: values.json === true, colour: wantsColour(out, env) };

  const outcome = await fetchRequest(client, id);
  if (outcome.status === "succeeded") return void out.write(resultOutput(outcome.result, options));
  if (outcome.status === "failed") {
    if (options.json) out.write(jsonOutput(outcome.request));
    throw new Error(failedLine(outcome.request));
  }
  if (!values.wait) return void out.write(options.json ? jsonOutput(outcome.request) : `${stillRunningLine(outcome.request)}\n`);

  const progress = startProgress(`waiting for request ${id}`, err);
  let result;
  try {
    result = await waitForRequest(client, outcome.request, progress);
  } finally {
    progress.stop();
  }
  out.write(resultOutput(result, options));
}

/**
 * GET /api/v1/requests/{id}, with the API's 404 put as a sentence that says what it means. A
 * 404 without the API's request id is left alone: the address is not the API's, and the
 * error line says that instead.
 */
async function fetchRequest(client: AdRankClient, id: string) {
  try {
    return (await client.getRequest(id)).data;
  } catch (e) {
    if (e instanceof NotFoundError && e.requestId !== null) throw new Error(`no request ${id} in this account (requests are kept 30 days; is ADRANK_API_KEY a key of the account that made it?)`, { cause: e });
    throw e;
  }
}
