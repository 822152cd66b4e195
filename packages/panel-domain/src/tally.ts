import { PANEL_SIZE, type PresentationOrder } from "./panel-orders.ts";

/** A side of a pair: the asset shown as `a` or as `b` in the request. */
export type Side = "a" | "b";

/** One voter's ballot as cast: `winner` is null when the vote is invalid (unparseable or failed). */
export interface CastVote {
  voterId: string;
  order: PresentationOrder;
  winner: Side | null;
  /** The raw model response; empty when the model call itself failed. */
  response: string;
  /** Why the vote is invalid, for the caller to read. */
  invalidReason?: string;
  /** The model that answered ("provider:model"); absent when none did. */
  model?: string;
  /** True when that model is the offline sim. */
  simulated?: boolean;
  /** The exact model version its provider reported; absent when it reports none. */
  modelVersion?: string;
}

export type PanelStatus = "done" | "partial" | "error";

export interface PanelTally {
  status: PanelStatus;
  validVotes: number;
  /** Absent on a tie or with no valid vote. */
  winner: Side | null;
  votesFor: number | null;
  votesTotal: number;
  winRate: number | null;
  consistency: number | null;
}

/**
 * Counts a panel. done: all 5 votes valid; partial: 1 to 4; error: none. The winner has
 * more valid votes than the other side; a tie names no winner. winRate = votesFor /
 * votesTotal over valid votes; consistency = 1 - |share_ab - share_ba|, where share_x is
 * the winner's share of the valid votes cast in order x (winRate when order x has none):
 * 1 means the winner won as often whichever side it was shown on.
 *
 * @example
 * tallyPanel(votes).status; // "done" when five valid votes were cast
 */
export function tallyPanel(votes: readonly CastVote[]): PanelTally {
  const valid = votes.filter((v): v is CastVote & { winner: Side } => v.winner !== null);
  const status: PanelStatus = valid.length === 0 ? "error" : valid.length >= PANEL_SIZE ? "done" : "partial";
  const forA = valid.filter((v) => v.winner === "a").length;
  const forB = valid.length - forA;
  if (valid.length === 0 || forA === forB) {
    return { status, validVotes: valid.length, winner: null, votesFor: null, votesTotal: valid.length, winRate: null, consistency: null };
  }
  const winner: Side = forA > forB ? "a" : "b";
  const votesFor = Math.max(forA, forB);
  const winRate = votesFor / valid.length;
  const shareIn = (order: PresentationOrder): number => {
    const inOrder = valid.filter((v) => v.order === order);
    return inOrder.length === 0 ? winRate : inOrder.filter((v) => v.winner === winner).length / inOrder.length;
  };
  const consistency = 1 - Math.abs(shareIn("ab") - shareIn("ba"));
  return { status, validVotes: valid.length, winner, votesFor, votesTotal: valid.length, winRate, consistency };
}
