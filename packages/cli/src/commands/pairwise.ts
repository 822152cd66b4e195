import type { PairwiseResponse } from "@adrank/sdk";
import { checkGoal } from "../closed-list-flags.ts";
import { readImageFile } from "../image-file.ts";
import { expandImagePaths, skippedNote } from "../image-paths.ts";
import { jsonOutput } from "../json-output.ts";
import { modelsNoteLines, printable, wantsColour } from "../models-note.ts";
import { fixed } from "../number-format.ts";
import { parseFlags } from "../parse-flags.ts";
import { counted, nounFor } from "../plural.ts";
import { startProgress } from "../progress.ts";
import { pairwiseRequestOf } from "../requests/pairwise-request.ts";
import { clientOf, settingsFromEnv } from "../settings.ts";
import { UsageError } from "../usage-error.ts";
import { AUDIENCE_OPTIONS, audienceOf } from "./audience-flags.ts";

export const PAIRWISE_HELP = `adrank pairwise (<a> <b> | <folder>) (--audience-id <id> | --audience-name <name>) [--goal <goal>] [--platform <p>] [--json]

Compares two local images (or a folder holding exactly two) with a panel of five blinded
voters; prints the winner, its votes, win rate and consistency, every vote with the model that
cast it, and the models that answered (with a SIMULATED warning when the offline sim model was
one of them). --goal takes the goals rank lists; --json prints the API's JSON response, data
URIs shortened as for rank.`;

const PAIRWISE_OPTIONS = { ...AUDIENCE_OPTIONS, goal: { type: "string" }, platform: { type: "string" }, json: { type: "boolean" } } as const;

const ratio = (n: number | null | undefined) => (n === null || n === undefined ? "–" : fixed(n, 2));

/** The pair's outcome as the terminal shows it: the verdict, one line per vote, the bill and the models. */
export function pairwiseLines(response: PairwiseResponse, { colour = false } = {}): string[] {
  const pair = response.pairs[0]!;
  const lines = [
    pair.winnerId
      ? `winner: ${pair.winnerId} (${pair.votesFor} of ${pair.votesTotal} ${nounFor(pair.votesTotal ?? 0, "vote")}, win rate ${ratio(pair.winRate)}, consistency ${ratio(pair.consistency)}; ${pair.status})`
      : `no winner (${pair.status})`,
    ...pair.votes.map((v) => `  ${v.voterId} (${v.order}${v.model ? `, ${printable(v.model)}` : ""}): ${v.valid === false ? `invalid: ${v.invalidReason ?? ""}` : `picked ${v.winnerId}`}`),
  ];
  if (pair.error) lines.push(`error: ${pair.error}`);
  lines.push(`${counted(response.summary.credits_used, "credit")} used`);
  lines.push(...modelsNoteLines(response.summary.models, "votes", colour));
  return lines;
}

export async function pairwiseCommand(args: string[], env: NodeJS.ProcessEnv, out: NodeJS.WriteStream, err: NodeJS.WriteStream = process.stderr): Promise<void> {
  const { values, positionals } = parseFlags(args, PAIRWISE_OPTIONS, { allowPositionals: true });
  // The cheap checks (flags, environment) before any image is read, and all before the paid call.
  if (positionals.length === 0) throw new UsageError("give exactly two image files");
  checkGoal(values.goal);
  audienceOf(values);
  const settings = settingsFromEnv(env);
  const { paths, skipped } = await expandImagePaths(positionals);
  for (const s of skipped) err.write(`${skippedNote(s)}\n`);
  if (paths.length !== 2) throw new UsageError(`give exactly two image files${paths.length === positionals.length ? "" : ` (found ${counted(paths.length, "image")} in ${positionals.join(" ")})`}`);
  const [a, b] = await Promise.all(paths.map(readImageFile));
  const request = pairwiseRequestOf(values, a!, b!);
  const progress = startProgress("asking a panel of five voters");
  const client = clientOf(settings, (e) => progress.note(`retrying in ${(e.delayMs / 1000).toFixed(1)} s`));
  let result;
  try {
    result = await client.pairwise(request);
  } finally {
    progress.stop();
  }
  out.write(values.json ? jsonOutput(result.data) : `${pairwiseLines(result.data, { colour: wantsColour(out, env) }).join("\n")}\n`);
}
