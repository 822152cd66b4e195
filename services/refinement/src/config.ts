import type { z } from "zod";
import { envInt, WorkerEnv } from "@adrank/runtime";

export const RefinementEnv = WorkerEnv.extend({
  /** Rank requests refined at once by one process; each mostly waits on its (up to 30) votes. */
  REFINEMENT_CONCURRENCY: envInt(32, 1, 1024),
  REFINEMENT_ACK_WAIT_MS: envInt(30_000, 500, 600_000),
  REFINEMENT_MAX_DELIVER: envInt(2, 1, 20),
  /** Replicas (1–5) of the JOBS stream when this service creates it (3 in production). */
  JOBS_JETSTREAM_REPLICAS: envInt(1, 1, 5),
});
export type RefinementConfig = z.infer<typeof RefinementEnv>;
