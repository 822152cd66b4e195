import type { PairwiseResponse } from "@adrank/sdk";
import { modelsNoteLines, printable } from "./models-note.ts";
import { fixed } from "./number-format.ts";
import { counted, nounFor } from "./plural.ts";
import { creditsLine } from "./ranked-table.ts";
import { warningLines } from "./warning-lines.ts";
import { winProbabilityLine } from "./win-probability-line.ts";

const ratio = (n: number | null | undefined) => (n === null || n === undefined ? "–" : fixed(n, 2));

/**
 * The pair's outcome as the terminal shows it: the verdict, how sure the panel is (when the server
 * says), one line per vote, the answer's warnings, the bill and the models.
 */
export function pairwiseLines(response: PairwiseResponse, { colour = false } = {}): string[] {
  const pair = response.pairs[0]!;
  const lines = [
    pair.winnerId
      ? `winner: ${pair.winnerId} (${pair.votesFor} of ${pair.votesTotal} ${nounFor(pair.votesTotal ?? 0, "vote")}, win rate ${ratio(pair.winRate)}, consistency ${ratio(pair.consistency)}; ${pair.status})`
      : `no winner (${pair.status})`,
  ];
  const sure = winProbabilityLine(pair.win_probability);
  if (sure) lines.push(sure);
  lines.push(...pair.votes.map((v) => `  ${v.voterId} (${v.order}${v.model ? `, ${printable(v.model)}` : ""}): ${v.valid === false ? `invalid: ${v.invalidReason ?? ""}` : `picked ${v.winnerId}`}`));
  if (pair.error) lines.push(`error: ${pair.error}`);
  lines.push(...warningLines(response.summary.warnings, response.summary.models));
  lines.push(response.summary.credits_status === "pending" ? creditsLine(response.summary) : `${counted(response.summary.credits_used, "credit")} used`);
  lines.push(...modelsNoteLines(response.summary.models, "votes", colour));
  return lines;
}
