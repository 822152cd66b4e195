import type { Estimate, Figures } from "@adrank/eval-stats";
import type { RankResponse } from "@adrank/sdk";

// What `adrank eval` writes as JSON (and renders as HTML): everything needed to judge the
// figures, and to compare two runs of the same data against two model set-ups.

export type ModelsUsed = RankResponse["summary"]["models"];

/** The group columns of a labelled row; null when the file has no such column or the cell is empty. */
export interface GroupKey {
  campaign: string | null;
  /** The inline audience name, or the saved audience id, the group was ranked for. */
  audience: string;
  goal: string;
}

/** One creative as scored, with the outcome it is compared with. */
export interface EvalPoint {
  /** The asset id sent (unique in the dataset): the row's `id`, or the image's file name or URL. */
  id: string;
  /** The image as the dataset names it (a path relative to the dataset, or an https URL). */
  image: string;
  outcome: number;
  score: number;
  score_before_refine: number;
  request_id: string;
}

export interface EvalGroup extends GroupKey {
  /** "campaign / audience / goal", for tables and plots. */
  label: string;
  request_ids: string[];
  points: EvalPoint[];
  figures: Figures;
}

/** A creative the API could not score (listed in the ranking's `errors`): left out of every figure. */
export interface EvalFailure {
  id: string;
  image: string;
  error: string;
}

export interface LabelledPairResult {
  image_a: string;
  image_b: string;
  label: "a" | "b";
  /** The panel's majority; null when the panel did not complete (status partial or error). */
  panel_winner: "a" | "b" | null;
  votes_a: number;
  votes_b: number;
  request_id: string;
  group: string;
}

export interface PairsSection {
  n: number;
  completed: number;
  /** Share of completed panels whose winner is the labelled winner; 0.5 is chance. */
  agreement: Estimate | null;
  groups: Array<{ label: string; n: number; completed: number; agreement: Estimate | null }>;
  items: LabelledPairResult[];
}

export interface EvalResult {
  version: 1;
  dataset: {
    path: string;
    /** sha256 of the file's bytes: two runs with the same hash scored the same data. */
    sha256: string;
    format: "csv" | "jsonl";
    rows: number;
    /** The outcome column's metric name (--metric), when the dataset has outcomes. */
    metric: string | null;
  };
  api: {
    base_url: string;
    /** Every distinct set of models that answered, as the responses reported them. */
    models: ModelsUsed[];
    /** True when any response came from the offline sim model. */
    simulated: boolean;
  };
  started_at: string;
  finished_at: string;
  /** Credits the run was billed, summed from the responses (a resumed run counts its earlier part too). */
  credits_used: number;
  requests: number;
  /** Null for a dataset of labelled pairs only. */
  outcomes: null | {
    refine: boolean;
    groups: EvalGroup[];
    /** Every group's points together; pairs only inside a group. */
    pooled: Figures;
    failed: EvalFailure[];
  };
  /** Null for a dataset of outcomes only. */
  pairs: PairsSection | null;
}
