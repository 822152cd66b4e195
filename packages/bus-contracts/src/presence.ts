import { z } from "zod";

/** What a running worker says about itself when asked: who it is and which model it uses. */
export const Presence = z.object({
  service: z.string(),
  worker: z.string(),
  model: z.string().optional(),
  simulated: z.boolean().optional(),
});
export type Presence = z.infer<typeof Presence>;
