import type { z } from "zod";
import { envInt } from "@adrank/runtime";
import { workerServiceEnv } from "@adrank/messaging";

export const VoterEnv = workerServiceEnv({
  /** Votes one process casts at once; each is one voter model call with two images. At least 30, so the 6 panels of a refinement vote at once. */
  VOTER_CONCURRENCY: envInt(32, 1, 512),
  /** Redelivery delay after a worker stops signalling progress (it died). */
  VOTER_ACK_WAIT_MS: envInt(30_000, 500, 600_000),
  /** Deliveries of one vote before it is answered as failed. */
  VOTER_MAX_DELIVER: envInt(2, 1, 20),
  /** Bytes of normalized images kept in memory, in front of the shared image store. */
  VOTER_IMAGE_CACHE_BYTES: envInt(64 * 1024 * 1024, 0),
});
export type VoterConfig = z.infer<typeof VoterEnv>;
