import type { z } from "zod";
import { GENERATOR_SAMPLES_PER_EVALUATION, REPETITIONS_PER_EVALUATION, TOO_CLOSE_TO_CALL, type RankedAsset } from "@adrank/contracts";

// A ranked asset built from what its evaluation measured, so that the figures derived from it
// (score, range, standard deviation, top margin, entropy, label, copy lift) cannot disagree
// with the repetitions and distribution shown next to them. p_above_next is given: it needs
// the whole batch's noise (the docs tests recompute it).

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** What one scoring evaluation measured: 3 repetition scores and the mean five-level distribution with its similarities. */
export interface MeasuredEvaluation {
  repetitionScores: readonly [number, number, number];
  probabilities: readonly number[];
  similarities: readonly number[];
}

export interface RankedAssetInput {
  rank: number;
  asset: { id: string; url: string };
  asset_type: string;
  evaluation: MeasuredEvaluation;
  /** The image-only ablation's score, for an asset sent with copy_context; absent for an image-only asset. */
  imageOnlyScore?: number;
  rationale: string;
  product_read: string;
  p_above_next: number | null;
}

/** Shannon entropy over ln 5: 0 for a certain answer, 1 for a uniform one (the scorer's definition). */
const normalizedEntropy = (pmf: readonly number[]) => -pmf.reduce((sum, p) => (p > 0 ? sum + p * Math.log(p) : sum), 0) / Math.log(pmf.length);

/** The scorer's label rule: low above 0.35 sd or 0.95 entropy; high at most 0.15 sd with a top margin of 0.10 or more. */
function confidenceLabel(sd: number, topMargin: number, entropy: number): z.output<typeof RankedAsset>["confidence"] {
  if (sd > 0.35 || entropy > 0.95) return "low";
  return sd <= 0.15 && topMargin >= 0.1 ? "high" : "medium";
}

/** A RankedAsset of a ranking that ran no panel on it: its final score is its raw repetition mean. */
export function rankedAsset(input: RankedAssetInput): z.output<typeof RankedAsset> {
  const { repetitionScores, probabilities, similarities } = input.evaluation;
  const score = round(mean(repetitionScores), 2);
  const withCopy = input.imageOnlyScore !== undefined;
  const [first = 0, second = 0] = [...probabilities].sort((a, b) => b - a);
  const topMargin = round(first - second, 2);
  const entropy = round(normalizedEntropy(probabilities), 2);
  const sd = round(Math.sqrt(mean(repetitionScores.map((x) => (x - mean(repetitionScores)) ** 2))), 2);
  const p = input.p_above_next;
  return {
    rank: input.rank,
    asset_url: input.asset.url,
    asset_id: input.asset.id,
    score,
    score_before_refine: score,
    score_layer: withCopy ? "full-ad-package" : "image-only",
    asset_type: input.asset_type,
    copy_context_included: withCopy,
    image_only_score: input.imageOnlyScore ?? score,
    copy_lift: withCopy ? round(score - input.imageOnlyScore!, 2) : 0,
    rationale: input.rationale,
    product_read: input.product_read,
    confidence: confidenceLabel(sd, topMargin, entropy),
    panel_outcome: null,
    confidence_details: { entropy, top_margin: topMargin, sample_std_dev: sd, repetition_count: REPETITIONS_PER_EVALUATION, generator_sample_count: GENERATOR_SAMPLES_PER_EVALUATION },
    details: {
      probabilities: [...probabilities],
      similarities: [...similarities],
      repetitionCount: REPETITIONS_PER_EVALUATION,
      generatorSampleCount: GENERATOR_SAMPLES_PER_EVALUATION,
      repetitionScores: [...repetitionScores],
      repetitionScoreRange: round(Math.max(...repetitionScores) - Math.min(...repetitionScores), 2),
    },
    p_above_next: p,
    too_close_to_call: p !== null && p >= TOO_CLOSE_TO_CALL.low && p <= TOO_CLOSE_TO_CALL.high,
  };
}
