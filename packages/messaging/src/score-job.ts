import { z } from "zod";

/** A reference to a normalized image in the shared image store (see image-store.ts). */
export const ImageRef = z.object({
  /** sha256 hex of the normalized bytes: the object name in the store. */
  ref: z.string().regex(/^[a-f0-9]{64}$/),
  mime: z.enum(["image/jpeg", "image/png", "image/webp"]),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type ImageRef = z.infer<typeof ImageRef>;

/** The persona inputs a worker needs. Demographics are as the caller gave them: the persona builder applies the defaults and says which they are. */
export const PersonaInput = z.object({
  audience: z.object({
    name: z.string(),
    description: z.string().optional(),
    demographics: z.record(z.string(), z.string()),
  }),
  goal: z.string(),
  assetType: z.string(),
  platform: z.string().nullable(),
  campaignType: z.string().nullable(),
});
export type PersonaInput = z.infer<typeof PersonaInput>;

export const ScoreLayer = z.enum(["full-ad-package", "image-only", "copy-only"]);
export type ScoreLayer = z.infer<typeof ScoreLayer>;

/** One scoring evaluation: 3 repetitions x 2 generators over one layer of one asset. */
export const ScoreJob = z.object({
  requestId: z.string().uuid(),
  jobId: z.string().min(1).max(128),
  /** Epoch ms; a worker drops the job after it. */
  deadline: z.number().int(),
  layer: ScoreLayer,
  image: ImageRef,
  /** Normalized copy (preferred keys); null for image-only evaluations. */
  copy: z.record(z.string(), z.string()).nullable(),
  persona: PersonaInput,
});
export type ScoreJob = z.infer<typeof ScoreJob>;

export const Evaluation = z.object({
  score: z.number().min(1).max(5),
  probabilities: z.array(z.number()).length(5),
  similarities: z.array(z.number()).length(5),
  repetitionScores: z.array(z.number()).length(3),
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
});
export type Evaluation = z.infer<typeof Evaluation>;

export const ScoreResult = z.object({
  requestId: z.string().uuid(),
  jobId: z.string(),
  /** Which worker answered, for traces and fault tests. */
  worker: z.string(),
  outcome: z.discriminatedUnion("ok", [
    z.object({ ok: z.literal(true), evaluation: Evaluation }),
    /** A sentence a user can read: it ends up in the response's `errors`. */
    z.object({ ok: z.literal(false), error: z.string() }),
  ]),
});
export type ScoreResult = z.infer<typeof ScoreResult>;
