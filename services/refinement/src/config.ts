import type { z } from "zod";
import { envInt } from "@adrank/runtime";
import { workerServiceEnv } from "@adrank/messaging";

export const RefinementEnv = workerServiceEnv({
  /** Rank requests refined at once by one process; each mostly waits on its (up to 30) votes. */
  REFINEMENT_CONCURRENCY: envInt(32, 1, 1024),
  REFINEMENT_ACK_WAIT_MS: envInt(30_000, 500, 600_000),
  REFINEMENT_MAX_DELIVER: envInt(2, 1, 20),
});
export type RefinementConfig = z.infer<typeof RefinementEnv>;
