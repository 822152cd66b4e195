import type { Estimate } from "@adrank/contracts";

// The shapes every evaluation figure takes, shared by `adrank eval` (its groups and pooled
// row) and GET /api/v1/calibration (its goals and pooled row).

/**
 * One scored creative with its observed outcome. `stratum` is the ranking (or eval group) it
 * was scored in: pairs are only compared inside one stratum, and the bootstrap resamples
 * points inside each stratum, so that strata of different sizes keep their weight.
 */
export interface ScoredOutcome {
  stratum: string;
  /** The final score (after close-pair refinement). */
  score: number;
  /** The raw score, before refinement. */
  rawScore: number;
  outcome: number;
}

export interface Figures {
  n: number;
  strata: number;
  /** Pairs inside one stratum whose outcomes differ: what pairwise agreement counts. */
  pairs: number;
  spearman_rho: Estimate | null;
  kendall_tau_b: Estimate | null;
  pairwise_agreement: Estimate | null;
  pairwise_agreement_raw: Estimate | null;
}

export interface FiguresOptions {
  /** Bootstrap resamples behind each interval (CALIBRATION_RESAMPLES by default). */
  resamples?: number;
  /** Seed of the resampling: the same points and seed give the same intervals. */
  seed?: number;
  /** Below this many points every figure is null (CALIBRATION_MIN_OUTCOMES by default). */
  minPoints?: number;
  /** Called now and then while the bootstrap runs; throwing stops it (see BootstrapOptions.checkpoint). */
  checkpoint?: () => void;
}

export type { Estimate };
