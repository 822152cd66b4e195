import type { PairwiseResponse, RequestResult, RequestStatus } from "@adrank/sdk";
import { ASYNC_OPTIONS, checkAsyncFlags } from "../async-flags.ts";
import { checkGoal } from "../closed-list-flags.ts";
import { acceptedLines, asyncCallOptions, callModeOf, syncCallOptions, waitingLine } from "../durable-call.ts";
import { readImageFile } from "../image-file.ts";
import { expandImagePaths, skippedNote } from "../image-paths.ts";
import { wantsColour } from "../models-note.ts";
import { parseFlags } from "../parse-flags.ts";
import { counted } from "../plural.ts";
import { startProgress } from "../progress.ts";
import { audienceOf } from "../requests/audience-from-flags.ts";
import { pairwiseRequestOf } from "../requests/pairwise-request.ts";
import { pairwiseOutput } from "../result-output.ts";
import { clientOf, settingsFromEnv } from "../settings.ts";
import { UsageError } from "../usage-error.ts";
import { waitForRequest } from "../wait-for-request.ts";
import { AUDIENCE_OPTIONS } from "./audience-flags.ts";

// The formatter moved beside ranked-table.ts so `adrank get` prints with it too.
export { pairwiseLines } from "../pairwise-lines.ts";

export const PAIRWISE_HELP = `adrank pairwise (<a> <b> | <folder>) (--audience-id <id> | --audience-name <name>) [--goal <goal>] [--platform <p>] [--json]
                [--async [--wait] [--webhook-url <url>]] [--idempotency-key <key>]

Compares two local images (or a folder holding exactly two) with a panel of five blinded
voters; prints the winner, its votes, win rate and consistency, the share of voters preferring
it with its 95 % interval and the chance a majority prefers it, every vote with the model that
cast it, the answer's warnings, and the models that answered (with a SIMULATED warning when the
offline sim model was one of them). --goal takes the goals rank lists; --json prints the API's JSON response, data
URIs shortened as for rank. --async, --wait, --webhook-url and --idempotency-key work as for rank.`;

const PAIRWISE_OPTIONS = { ...AUDIENCE_OPTIONS, ...ASYNC_OPTIONS, goal: { type: "string" }, platform: { type: "string" }, json: { type: "boolean" } } as const;

export async function pairwiseCommand(args: string[], env: NodeJS.ProcessEnv, out: NodeJS.WriteStream, err: NodeJS.WriteStream = process.stderr): Promise<void> {
  const { values, positionals } = parseFlags(args, PAIRWISE_OPTIONS, { allowPositionals: true });
  // The cheap checks (flags, environment) before any image is read, and all before the paid call.
  if (positionals.length === 0) throw new UsageError("give exactly two image files");
  checkGoal(values.goal);
  audienceOf(values);
  checkAsyncFlags(values);
  const settings = settingsFromEnv(env);
  const { paths, skipped } = await expandImagePaths(positionals);
  for (const s of skipped) err.write(`${skippedNote(s)}\n`);
  if (paths.length !== 2) throw new UsageError(`give exactly two image files${paths.length === positionals.length ? "" : ` (found ${counted(paths.length, "image")} in ${positionals.join(" ")})`}`);
  const [a, b] = await Promise.all(paths.map(readImageFile));
  const request = pairwiseRequestOf(values, a!, b!);
  // One pair has no progress worth polling for: only --async submits asynchronously.
  const mode = callModeOf(values, false);

  const progress = startProgress(mode === "async" ? "submitting the pair" : "asking a panel of five voters", err);
  const client = clientOf(settings, (e) => progress.note(`retrying in ${(e.delayMs / 1000).toFixed(1)} s`));
  let accepted: RequestStatus | null = null;
  let result: PairwiseResponse | null = null;
  try {
    if (mode === "sync") result = (await client.pairwise(request, syncCallOptions(values))).data;
    else {
      accepted = (await client.pairwiseAsync(request, asyncCallOptions(values))).data;
      if (mode === "async-wait") {
        progress.say(waitingLine(accepted));
        result = pairwiseOf(await waitForRequest(client, accepted, progress));
      }
    }
  } finally {
    progress.stop();
  }
  if (result === null) {
    const lines = acceptedLines(accepted!, values.json === true);
    out.write(lines.stdout);
    return void err.write(lines.stderr);
  }
  out.write(pairwiseOutput(result, { json: values.json === true, colour: wantsColour(out, env) }));
}

/** A waited-for result of a pairwise request is a comparison; anything else is the server's mistake. */
function pairwiseOf(result: RequestResult): PairwiseResponse {
  if ("pairs" in result) return result;
  throw new Error("the request's result is not a pairwise comparison");
}
