import { parseArgs } from "node:util";
import type { PairwiseResponse } from "@adrank/sdk";
import { readImageFile } from "../image-file.ts";
import { modelsNoteLines, printable, wantsColour } from "../models-note.ts";
import { startProgress } from "../progress.ts";
import { pairwiseRequestOf } from "../requests/pairwise-request.ts";
import { clientFromEnv } from "../settings.ts";
import { UsageError } from "../usage-error.ts";
import { AUDIENCE_OPTIONS } from "./audience-flags.ts";

export const PAIRWISE_HELP = `adrank pairwise <a> <b> (--audience-id <id> | --audience-name <name>) [--goal <goal>] [--platform <p>] [--json]

Compares two local images with a panel of five blinded voters; prints the winner, its votes,
win rate and consistency, every vote with the model that cast it, and the models that answered
(with a SIMULATED warning when the offline sim model was one of them).`;

/** The pair's outcome as the terminal shows it: the verdict, one line per vote, the bill and the models. */
export function pairwiseLines(response: PairwiseResponse, { colour = false } = {}): string[] {
  const pair = response.pairs[0]!;
  const lines = [
    pair.winnerId ? `winner: ${pair.winnerId} (${pair.votesFor} of ${pair.votesTotal} votes, win rate ${pair.winRate?.toFixed(2)}, consistency ${pair.consistency?.toFixed(2)}; ${pair.status})` : `no winner (${pair.status})`,
    ...pair.votes.map((v) => `  ${v.voterId} (${v.order}${v.model ? `, ${printable(v.model)}` : ""}): ${v.valid === false ? `invalid: ${v.invalidReason ?? ""}` : `picked ${v.winnerId}`}`),
  ];
  if (pair.error) lines.push(`error: ${pair.error}`);
  lines.push(`${response.summary.credits_used} credit${response.summary.credits_used === 1 ? "" : "s"} used`);
  lines.push(...modelsNoteLines(response.summary.models, "votes", colour));
  return lines;
}

export async function pairwiseCommand(args: string[], env: NodeJS.ProcessEnv, out: NodeJS.WriteStream): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { ...AUDIENCE_OPTIONS, goal: { type: "string" }, platform: { type: "string" }, json: { type: "boolean" } } });
  if (positionals.length !== 2) throw new UsageError("give exactly two image files");
  const [a, b] = await Promise.all(positionals.map(readImageFile));
  const request = pairwiseRequestOf(values, a!, b!);
  const progress = startProgress("asking a panel of five voters");
  const client = clientFromEnv(env, (e) => progress.note(`retrying in ${(e.delayMs / 1000).toFixed(1)} s`));
  let result;
  try {
    result = await client.pairwise(request);
  } finally {
    progress.stop();
  }
  out.write(values.json ? `${JSON.stringify(result.data, null, 2)}\n` : `${pairwiseLines(result.data, { colour: wantsColour(out, env) }).join("\n")}\n`);
}
