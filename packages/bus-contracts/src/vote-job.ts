import { z } from "zod";
import { ImageRef } from "./image-ref.ts";
import { JobCopy, PersonaInput } from "./persona-input.ts";
import { JobEnvelope, jobResult } from "./job.ts";

/**
 * One blinded panel vote. The two images come in presentation order ("Image 1", "Image 2");
 * nothing in the job names the assets, their addresses or scores, so the voter cannot
 * learn them.
 */
export const VoteJob = JobEnvelope.extend({
  voterId: z.string(),
  /** The voter's seat (0-based): varies the voter's sampling, like a repetition. */
  seat: z.number().int().min(0).max(9),
  persona: PersonaInput,
  images: z.tuple([ImageRef, ImageRef]),
  copy: z.tuple([JobCopy, JobCopy]),
});
export type VoteJob = z.infer<typeof VoteJob>;

export const VoteResult = jobResult(
  z.object({
    ok: z.literal(true),
    model: z.string(),
    /** The raw model response, always kept. */
    response: z.string(),
    /** The image the voter chose by position; null when the answer could not be read (an invalid vote). */
    choice: z.enum(["first", "second"]).nullable(),
    invalidReason: z.string().optional(),
    simulated: z.boolean(),
  }),
);
export type VoteResult = z.infer<typeof VoteResult>;
