import type { WinProbability } from "@adrank/contracts";
import { winProbability } from "@adrank/uncertainty";
import type { CastVote, PanelTally } from "./tally.ts";

/** The spec's PairwiseVote, with `valid` saying whether it counted. */
export interface PresentedVote {
  voterId: string;
  order: "ab" | "ba";
  /** Empty for an invalid vote: an answer that could not be read is never guessed. */
  winnerId: string;
  loserId: string;
  response: string;
  valid: boolean;
  invalidReason?: string;
  model?: string;
  simulated?: boolean;
  modelVersion?: string;
}

/** The spec's PairwiseResult fields that a panel produces. */
export interface PresentedPanel {
  pairId: string;
  aId: string;
  bId: string;
  status: PanelTally["status"];
  votes: PresentedVote[];
  winnerId?: string;
  votesFor?: number;
  votesTotal: number;
  winRate?: number;
  consistency?: number;
  win_probability?: WinProbability | null;
  error?: string;
}

/** A cast vote in the response's terms: sides become the pair's asset ids. */
export function presentVote(vote: CastVote, ids: { a: string; b: string }): PresentedVote {
  const base = {
    voterId: vote.voterId,
    order: vote.order,
    response: vote.response,
    ...(vote.model === undefined ? {} : { model: vote.model }),
    ...(vote.simulated === undefined ? {} : { simulated: vote.simulated }),
    ...(vote.modelVersion === undefined ? {} : { modelVersion: vote.modelVersion }),
  };
  if (vote.winner === null) return { ...base, winnerId: "", loserId: "", valid: false, invalidReason: vote.invalidReason ?? "the vote could not be read" };
  const winnerId = vote.winner === "a" ? ids.a : ids.b;
  const loserId = vote.winner === "a" ? ids.b : ids.a;
  return { ...base, winnerId, loserId, valid: true };
}

/**
 * A panel's result as the pairwise response (and the refinement report) shows it. Rates are
 * rounded to 4 decimals for reading; counts stay exact. An error pair carries `error`; a
 * partial one says how many votes counted.
 */
export function presentPanel(input: { pairId: string; aId: string; bId: string; votes: readonly CastVote[]; tally: PanelTally; error?: string }): PresentedPanel {
  const { tally } = input;
  const ids = { a: input.aId, b: input.bId };
  const result: PresentedPanel = {
    pairId: input.pairId,
    aId: input.aId,
    bId: input.bId,
    status: tally.status,
    votes: input.votes.map((v) => presentVote(v, ids)),
    votesTotal: tally.votesTotal,
  };
  if (tally.winner !== null) {
    result.winnerId = tally.winner === "a" ? input.aId : input.bId;
    result.votesFor = tally.votesFor ?? 0;
    result.winRate = round4(tally.winRate ?? 0);
    result.consistency = round4(tally.consistency ?? 0);
  }
  result.win_probability = winProbabilityOf(input.aId, input.bId, tally);
  const error = input.error ?? defaultError(tally, input.votes);
  if (error) result.error = error;
  return result;
}

/**
 * The panel's preference with its uncertainty (contracts' WinProbability): about the winner,
 * or about `a` on a tie; null when no vote counted.
 */
export function winProbabilityOf(aId: string, bId: string, tally: PanelTally): WinProbability | null {
  if (tally.votesTotal === 0) return null;
  // On a tie each side has half the valid votes; with a winner, votesFor is its count.
  const forSubject = tally.winner === null ? tally.votesTotal / 2 : (tally.votesFor ?? 0);
  const figures = winProbability(forSubject, tally.votesTotal - forSubject);
  if (figures === null) return null;
  return {
    asset_id: tally.winner === "b" ? bId : aId,
    value: round4(figures.value),
    ci_low: round4(figures.ci_low),
    ci_high: round4(figures.ci_high),
    p_better: round4(figures.p_better),
  };
}

function defaultError(tally: PanelTally, votes: readonly CastVote[]): string | undefined {
  if (tally.status === "done") return undefined;
  const reasons = [...new Set(votes.filter((v) => v.winner === null).map((v) => v.invalidReason).filter((r): r is string => !!r))];
  const why = reasons.length > 0 ? ` (${reasons.slice(0, 3).join("; ")})` : "";
  if (tally.status === "error") return `No valid vote was cast${why}.`;
  return `Only ${tally.validVotes} of ${votes.length} votes were valid${why}.`;
}

export function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
