import type { ModelsUsed } from "./ModelsNote.tsx";

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
  copy_lift?: number | null;
  rationale: string;
  panel_outcome: PanelOutcome | null;
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
  errors: Array<{ asset_id: string | null; error: string }>;
  summary: {
    credits_used: number;
    credits_remaining: number | null;
    models?: ModelsUsed;
    close_pair_refinement?: { results: RefinedPair[] };
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
}

export interface PairAnswer {
  pairs: PairResult[];
  summary?: { credits_used?: number; credits_remaining?: number | null; models?: ModelsUsed };
}
