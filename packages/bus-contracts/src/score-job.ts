import { z } from "zod";
import { ScoreLayer, REPETITIONS_PER_EVALUATION } from "@adrank/contracts";
import { ImageRef } from "./image-ref.ts";
import { JobCopy, PersonaInput } from "./persona-input.ts";
import { JobEnvelope, jobResult } from "./job.ts";
import { ModelUsage } from "./model-usage.ts";
import { EvaluationReceipt } from "./receipt.ts";

/** One scoring evaluation: 3 repetitions x 2 generators over one layer of one asset. */
export const ScoreJob = JobEnvelope.extend({
  layer: ScoreLayer,
  image: ImageRef,
  /** Normalized copy (preferred keys); null for image-only evaluations. */
  copy: JobCopy,
  persona: PersonaInput,
});
export type ScoreJob = z.infer<typeof ScoreJob>;

export const Evaluation = z.object({
  score: z.number().min(1).max(5),
  probabilities: z.array(z.number()).length(5),
  similarities: z.array(z.number()).length(5),
  repetitionScores: z.array(z.number()).length(REPETITIONS_PER_EVALUATION),
  repetitionScoreRange: z.number(),
  entropy: z.number(),
  topMargin: z.number(),
  sampleStdDev: z.number(),
  confidence: z.enum(["high", "medium", "low"]),
  rationale: z.string(),
  productRead: z.string(),
  generatorModels: z.array(z.string()),
  embeddingModel: z.string(),
  /** True when any model involved is the offline `sim` model. */
  simulated: z.boolean(),
  /** Calls and tokens per model, a replaced sample's failed call included. Absent from older scorers. */
  usage: z.array(ModelUsage).optional(),
  /** How the evaluation was produced (the answer's receipt). Absent from older scorers. */
  receipt: EvaluationReceipt.optional(),
  /** The scorer's method key (services/scorer/src/method-key.ts): what a kept copy of this evaluation is filed under. Absent from older scorers, whose evaluations are not kept. */
  methodKey: z.string().regex(/^[a-f0-9]{16}$/).optional(),
});
export type Evaluation = z.infer<typeof Evaluation>;

export const ScoreResult = jobResult(z.object({ ok: z.literal(true), evaluation: Evaluation }));
export type ScoreResult = z.infer<typeof ScoreResult>;
