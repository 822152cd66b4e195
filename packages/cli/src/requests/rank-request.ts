import type { RankInput } from "@adrank/sdk";
import { audienceOf, type AudienceFlags } from "./audience-from-flags.ts";
import type { Copy } from "../copy-file.ts";
import type { ImageFile } from "../image-file.ts";

export interface RankFlags extends AudienceFlags {
  goal?: string;
  "asset-type"?: string;
  platform?: string;
  /** --refine / --no-refine; absent leaves the server's default (refine). */
  refine?: boolean;
}

/**
 * The rank request for images read from disk: each image's file name becomes its asset id,
 * so results map back to files. Flags left out are left out of the body (server defaults).
 *
 * @example
 * rankRequestOf({ "audience-id": "aud_1", goal: "scroll-stopping" }, [image], [null]);
 */
export function rankRequestOf(flags: RankFlags, images: Array<Pick<ImageFile, "name" | "dataUri">>, copies: Array<Copy | null>): RankInput {
  return {
    assets: images.map((img, i) => ({ url: img.dataUri, id: img.name, ...(copies[i] ? { copy_context: copies[i] } : {}) })),
    ...audienceOf(flags),
    ...(flags.goal ? { goal: flags.goal } : {}),
    ...(flags["asset-type"] ? { asset_type: flags["asset-type"] } : {}),
    ...(flags.platform ? { platform: flags.platform } : {}),
    ...(flags.refine === undefined ? {} : { refine_close_pairs: flags.refine }),
  } as RankInput;
}
