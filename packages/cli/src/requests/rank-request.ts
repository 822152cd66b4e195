import type { AudienceItemInput, RankInput } from "@adrank/sdk";
import { audienceOf, type AudienceFlags } from "./audience-from-flags.ts";
import type { Copy } from "../copy-file.ts";
import type { ImageFile } from "../image-file.ts";

export interface RankFlags extends AudienceFlags {
  goal?: string;
  "asset-type"?: string;
  platform?: string;
  /** --refine / --no-refine; absent leaves the server's default (refine). */
  refine?: boolean;
  /** --reuse: evaluations of this account already paid for are reused (reuse_evaluations). */
  reuse?: boolean;
}

/** The audience part of a rank body. */
export type RankAudience = Pick<RankInput, "audience" | "audience_id">;

/** Each image as an asset: its file name becomes its asset id, so results map back to files. */
export const assetsOf = (images: Array<Pick<ImageFile, "name" | "dataUri">>, copies: Array<Copy | null>): RankInput["assets"] =>
  images.map((img, i) => ({ url: img.dataUri, id: img.name, ...(copies[i] ? { copy_context: copies[i] } : {}) }));

/** The flags rank and rank across audiences share; flags left out are left out of the body (server defaults). */
export const rankOptionsOf = (flags: Omit<RankFlags, keyof AudienceFlags>) => ({
  ...(flags.goal ? { goal: flags.goal } : {}),
  ...(flags["asset-type"] ? { asset_type: flags["asset-type"] } : {}),
  ...(flags.platform ? { platform: flags.platform } : {}),
  ...(flags.refine === undefined ? {} : { refine_close_pairs: flags.refine }),
  ...(flags.reuse ? { reuse_evaluations: true } : {}),
});

/** One audience of a list (an --audiences file may hold one) as a rank body's audience part. */
export const rankAudienceOf = (item: AudienceItemInput): RankAudience => ("audience_id" in item ? { audience_id: item.audience_id } : { audience: item });

/**
 * The rank request for images read from disk: each image's file name becomes its asset id,
 * so results map back to files. Flags left out are left out of the body (server defaults).
 * The audience is the flags' unless given.
 *
 * @example
 * rankRequestOf({ "audience-id": "aud_1", goal: "scroll-stopping" }, [image], [null]);
 */
export function rankRequestOf(flags: RankFlags, images: Array<Pick<ImageFile, "name" | "dataUri">>, copies: Array<Copy | null>, audience: RankAudience = audienceOf(flags)): RankInput {
  return { assets: assetsOf(images, copies), ...audience, ...rankOptionsOf(flags) } as RankInput;
}
