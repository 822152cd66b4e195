import { z } from "zod";

/** What a running worker says about itself when asked: who it is and which model it uses. */
export const Presence = z.object({
  service: z.string(),
  worker: z.string(),
  model: z.string().optional(),
  simulated: z.boolean().optional(),
  /** A scorer's method key (services/scorer/src/method-key.ts): the gateway reuses only evaluations kept under the key of the scorers running now. */
  methodKey: z.string().regex(/^[a-f0-9]{16}$/).optional(),
});
export type Presence = z.infer<typeof Presence>;
