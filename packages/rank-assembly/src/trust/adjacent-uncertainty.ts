import type { ClosePairResult, RankUncertainty } from "@adrank/contracts";
import { aboveNextProbability, repetitionNoise, tooCloseToCall, type PanelVotes } from "@adrank/uncertainty";
import { panelIdOf } from "../refinement.ts";
import type { ScoredAsset } from "../scored-asset.ts";

/** What a ranked asset says about its neighbour below. */
export interface AboveNext {
  /** P(this asset truly outranks the next); null for the last asset. */
  pAboveNext: number | null;
  tooCloseToCall: boolean;
}

export interface RankedUncertainty {
  /** One per asset, in ranked order. */
  assets: AboveNext[];
  summary: RankUncertainty;
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
const meanOf = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * The probability behind each neighbouring pair of a ranking (the model is stated in the
 * contract's P_ABOVE_NEXT_DESCRIPTION): the raw repetition means against the batch's pooled
 * repetition noise, and, when refinement ran a panel on exactly that pair, the panel's votes.
 *
 * @example
 * rankedUncertainty(ordered, refinement.report.results).summary.too_close_to_call; // 1
 */
export function rankedUncertainty(ordered: readonly ScoredAsset[], closePairs: readonly ClosePairResult[]): RankedUncertainty {
  const noise = repetitionNoise(ordered.map((a) => a.evaluation.repetitionScores));
  const assets = ordered.map((upper, i): AboveNext => {
    const lower = ordered[i + 1];
    if (!lower) return { pAboveNext: null, tooCloseToCall: false };
    const p = aboveNextProbability({
      upperMean: meanOf(upper.evaluation.repetitionScores),
      lowerMean: meanOf(lower.evaluation.repetitionScores),
      noise,
      repetitions: upper.evaluation.repetitionScores.length,
      panel: panelVotesOn(panelIdOf(upper), panelIdOf(lower), closePairs),
    });
    return { pAboveNext: p === null ? null : round4(p), tooCloseToCall: tooCloseToCall(p) };
  });
  return {
    assets,
    summary: {
      repetition_noise_sd: noise.df > 0 ? round4(noise.sd) : null,
      degrees_of_freedom: noise.df,
      adjacent_pairs: Math.max(0, ordered.length - 1),
      too_close_to_call: assets.filter((a) => a.tooCloseToCall).length,
    },
  };
}

/**
 * The valid votes a refinement panel cast on exactly these two assets, by side; null when no
 * panel ran on them (or their ids are the same, so the votes cannot be told apart).
 */
export function panelVotesOn(upperId: string, lowerId: string, closePairs: readonly ClosePairResult[]): PanelVotes | null {
  if (upperId === lowerId) return null;
  const pair = closePairs.find((r) => (r.aId === upperId && r.bId === lowerId) || (r.aId === lowerId && r.bId === upperId));
  if (!pair) return null;
  const valid = pair.votes.filter((v) => v.valid !== false && v.winnerId !== "");
  return { forUpper: valid.filter((v) => v.winnerId === upperId).length, forLower: valid.filter((v) => v.winnerId === lowerId).length };
}
