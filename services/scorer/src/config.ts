import { z } from "zod";
import { envInt } from "@adrank/runtime";
import { workerServiceEnv } from "@adrank/messaging";
import { DEFAULT_SIMILARITY_LIMIT } from "./evaluation-receipt.ts";

export const ScorerEnv = workerServiceEnv({
  /** Evaluations one process runs at once; each is 6 generator calls and 1 embedding call. */
  SCORER_CONCURRENCY: envInt(4, 1, 256),
  /** Redelivery delay after a worker stops signalling progress (it died). */
  SCORER_ACK_WAIT_MS: envInt(30_000, 500, 600_000),
  SCORER_MAX_DELIVER: envInt(3, 1, 20),
  /** Bytes of normalized images kept in memory, in front of the shared image store. */
  SCORER_IMAGE_CACHE_BYTES: envInt(128 * 1024 * 1024, 0),
  /**
   * Mean pairwise cosine of a reference set's five anchors above which answers warn
   * `anchors_not_separable` (docs/method.md: why 0.65, and when an embedder needs another).
   */
  ANCHOR_SIMILARITY_LIMIT: z.coerce.number().min(0).max(1).default(DEFAULT_SIMILARITY_LIMIT),
  /**
   * "on": on a generator whose provider caches prompts, one sample of an evaluation starts first
   * and the others when it has answered, so they read the image from the cache (about one
   * sample's latency more per evaluation). "off": every sample starts at once.
   */
  ADRANK_PROMPT_CACHE_WARMUP: z
    .enum(["on", "off"])
    .default("on")
    .transform((v) => v === "on"),
});
export type ScorerConfig = z.infer<typeof ScorerEnv>;
