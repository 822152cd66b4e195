import type { z } from "zod";
import { envInt } from "@adrank/runtime";
import { workerServiceEnv } from "@adrank/messaging";

export const ScorerEnv = workerServiceEnv({
  /** Evaluations one process runs at once; each is 6 generator calls and 1 embedding call. */
  SCORER_CONCURRENCY: envInt(4, 1, 256),
  /** Redelivery delay after a worker stops signalling progress (it died). */
  SCORER_ACK_WAIT_MS: envInt(30_000, 500, 600_000),
  SCORER_MAX_DELIVER: envInt(3, 1, 20),
  /** Bytes of normalized images kept in memory, in front of the shared image store. */
  SCORER_IMAGE_CACHE_BYTES: envInt(128 * 1024 * 1024, 0),
});
export type ScorerConfig = z.infer<typeof ScorerEnv>;
