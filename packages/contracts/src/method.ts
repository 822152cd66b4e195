import { z } from "zod";

// The fixed figures and names of the scoring method (spec, Limits and rank rules), defined
// once: the response schema, the bus contracts, the SSR rules and the assembly read them here.

/** Repetitions of one scoring evaluation. */
export const REPETITIONS_PER_EVALUATION = 3;
/** Generator models asked in each repetition. */
export const GENERATORS_PER_REPETITION = 2;
/** Answers one evaluation gathers: repetitions x generators. */
export const GENERATOR_SAMPLES_PER_EVALUATION = 6;
/** Voters on one blinded panel. */
export const PANEL_SIZE = 5;

/** What one evaluation judges: the whole ad, the picture alone, or the copy alone. */
export const ScoreLayer = z.enum(["image-only", "copy-only", "full-ad-package"]);
export type ScoreLayer = z.infer<typeof ScoreLayer>;

/** What a request is metered in: scoring evaluations (rank) or panels (pairwise). */
export const UsageKind = z.enum(["scoring", "pairwise"]);
export type UsageKind = z.infer<typeof UsageKind>;
