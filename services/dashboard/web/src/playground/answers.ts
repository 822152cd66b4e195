import type { AnswerWarning, AssetComparison, AudienceSensitivity, MethodReceipt, ModelReceipt, RankUncertainty, Reversal, WinProbability } from "@adrank/contracts";
import type { ModelsUsed } from "./ModelsNote.tsx";

// The contract's own types, imported as types only: the bundle stays free of zod.
export type { AnswerWarning, AssetComparison, AudienceSensitivity, MethodReceipt, ModelReceipt, RankUncertainty, Reversal, WinProbability };

// The parts of the public API's rank and pairwise answers the playground shows.

export interface PickedImage {
  /** Also the asset's id in the request, so results can be matched back to thumbnails. */
  name: string;
  dataUri: string;
}

export interface PanelOutcome {
  winnerAssetId: string;
  loserAssetId: string;
  /** The panel's winner had the lower raw score: the panel reversed the raw order. */
  flipped: boolean;
  votesFor: number;
  votesTotal: number;
}

export interface RankedAsset {
  rank: number;
  asset_id: string | null;
  asset_url: string;
  score: number;
  confidence: string;
  /** False for an image sent without copy, whose copy lift is a plain 0; absent from servers older than it. */
  copy_context_included?: boolean;
  copy_lift?: number | null;
  rationale: string;
  panel_outcome: PanelOutcome | null;
  /** Chance it truly outranks the next one; null for the last, absent from servers older than it. */
  p_above_next?: number | null;
  /** It and the next are a coin toss; absent from servers older than it. */
  too_close_to_call?: boolean;
}

export interface Vote {
  voterId: string;
  /** "ab": the voter saw image a first; "ba": image b first. */
  order: "ab" | "ba";
  winnerId: string;
  valid?: boolean;
  invalidReason?: string;
  response: string;
  model?: string;
  simulated?: boolean;
}

export interface RefinedPair {
  aId: string;
  bId: string;
  model?: string | null;
  votes: Vote[];
}

export interface RankAnswer {
  ranked: RankedAsset[];
  errors: Array<{ asset_id: string | null; asset_url?: string; error: string }>;
  summary: {
    credits_used: number;
    credits_remaining: number | null;
    models?: ModelsUsed;
    close_pair_refinement?: { results: RefinedPair[] };
    uncertainty?: RankUncertainty;
    warnings?: AnswerWarning[];
    method?: MethodReceipt;
  };
}

export interface PairResult {
  aId: string;
  bId: string;
  status: string;
  winnerId?: string;
  votesFor?: number;
  votesTotal?: number;
  winRate?: number;
  consistency?: number;
  error?: string;
  votes: Vote[];
  /** Null when no vote counted; absent from servers older than it. */
  win_probability?: WinProbability | null;
}

export interface PairAnswer {
  pairs: PairResult[];
  summary?: { credits_used?: number; credits_remaining?: number | null; models?: ModelsUsed; warnings?: AnswerWarning[]; method?: MethodReceipt };
}

/** One audience's complete ranking inside a ranking across audiences: a rank answer with the audience's name. */
export interface AudienceRankingAnswer extends RankAnswer {
  audience: string;
  audience_id: string | null;
}

/** POST /api/v1/rank/audiences: each audience's ranking, and where they agree and disagree. */
export interface AudiencesAnswer {
  by_audience: AudienceRankingAnswer[];
  comparison: AssetComparison[];
  reversals: Reversal[];
  audience_sensitivity: AudienceSensitivity[];
  summary: {
    audiences: string[];
    credits_used: number;
    credits_remaining: number | null;
    models?: ModelsUsed;
    warnings?: AnswerWarning[];
  };
}
