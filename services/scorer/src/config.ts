import type { z } from "zod";
import { envInt, WorkerEnv } from "@adrank/runtime";

export const ScorerEnv = WorkerEnv.extend({
  /** Evaluations one process runs at once; each is 6 generator calls and 1 embedding call. */
  SCORER_CONCURRENCY: envInt(4, 1, 256),
  /** Redelivery delay after a worker stops signalling progress (it died). */
  SCORER_ACK_WAIT_MS: envInt(30_000, 500, 600_000),
  SCORER_MAX_DELIVER: envInt(3, 1, 20),
  /** Bytes of normalized images kept in memory, in front of the shared image store. */
  SCORER_IMAGE_CACHE_BYTES: envInt(128 * 1024 * 1024, 0),
  /** Replicas (1–5) of the JOBS stream and the image bucket when this service creates them (3 in production). */
  JOBS_JETSTREAM_REPLICAS: envInt(1, 1, 5),
});
export type ScorerConfig = z.infer<typeof ScorerEnv>;
