import { z } from "zod";
import { ImageRef } from "./image-ref.ts";
import { JobCopy, PanelPersonaInput } from "./persona-input.ts";
import { JobEnvelope, jobResult } from "./job.ts";
import { ModelUsage } from "./model-usage.ts";
import { VoteReceipt } from "./receipt.ts";

/**
 * One blinded panel vote. The two images come in presentation order ("Image 1", "Image 2"),
 * and so do their copy and asset types; nothing in the job names the assets, their
 * addresses or scores, so the voter cannot learn them.
 */
export const VoteJob = JobEnvelope.extend({
  voterId: z.string(),
  /** The voter's seat (0-based): varies the voter's sampling, like a repetition. */
  seat: z.number().int().min(0).max(9),
  /** The request's persona, without an asset type: `assetTypes` frames each image. */
  persona: PanelPersonaInput,
  images: z.tuple([ImageRef, ImageRef]),
  copy: z.tuple([JobCopy, JobCopy]),
  /** Each image's asset type in presentation order; null when not stated. Absent from older gateways: neither stated. */
  assetTypes: z.tuple([z.string().nullable(), z.string().nullable()]).default([null, null]),
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
    /** The voter's call and tokens. Absent from older voters. */
    usage: ModelUsage.optional(),
    /** How the vote was produced (the answer's receipt). Absent from older voters. */
    receipt: VoteReceipt.optional(),
  }),
);
export type VoteResult = z.infer<typeof VoteResult>;
