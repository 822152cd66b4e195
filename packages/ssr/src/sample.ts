import { cosineSimilarity } from "./cosine.ts";
import { meanRow } from "./mean.ts";
import { LEVELS, pmfFromSimilarities, scoreFromPmf, type PmfOptions } from "./pmf.ts";
import { SsrInputError } from "./ssr-input-error.ts";

/**
 * One generator sample's cosines: one row per reference set of the goal, 5 cosines per row
 * (anchor levels 1..5).
 */
export type SampleSimilarities = ReadonlyArray<readonly number[]>;

/**
 * One answer's cosines to the anchors of every reference set, set by set, anchor by anchor:
 * what `sampleFromSimilarities` rates.
 *
 * @example
 * similaritiesToAnchors([1, 0], [[[1, 0], [0, 1]]]); // [[1, 0]]
 */
export function similaritiesToAnchors(answer: readonly number[], anchorSets: ReadonlyArray<ReadonlyArray<readonly number[]>>): number[][] {
  return anchorSets.map((set) => set.map((anchor) => cosineSimilarity(answer, anchor)));
}

/** One generator sample rated against every reference set of its goal. */
export interface RatedSample {
  /** Mean of the per-set pmfs. */
  pmf: number[];
  /** Mean cosine per level across the sets. */
  similarities: number[];
  /** Σ r·pmf_r. */
  score: number;
}

/**
 * Rates one sample. With several reference sets per goal the sample's pmf is the mean of
 * the sets' pmfs, so no single wording of the anchors decides the score.
 *
 * @example
 * sampleFromSimilarities([[0, 0, 0, 0, 1], [0, 0.2, 0.4, 0.6, 0.8]]).score; // 4.5
 */
export function sampleFromSimilarities(perSet: SampleSimilarities, options?: PmfOptions): RatedSample {
  if (perSet.length === 0) throw new SsrInputError("at least one reference set is needed");
  const pmf = meanRow(
    perSet.map((cosines) => pmfFromSimilarities(cosines, options)),
    LEVELS,
  );
  return { pmf, similarities: meanRow(perSet, LEVELS), score: scoreFromPmf(pmf) };
}
