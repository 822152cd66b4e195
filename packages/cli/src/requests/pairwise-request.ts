import type { PairwiseInput } from "@adrank/sdk";
import { audienceOf, type AudienceFlags } from "./audience-from-flags.ts";
import type { ImageFile } from "../image-file.ts";
import { UsageError } from "../usage-error.ts";

export interface PairwiseFlags extends AudienceFlags {
  goal?: string;
  platform?: string;
}

/** One pair of two local images, identified by file name so the votes read as file names. */
export function pairwiseRequestOf(flags: PairwiseFlags, a: Pick<ImageFile, "name" | "dataUri">, b: Pick<ImageFile, "name" | "dataUri">): PairwiseInput {
  if (a.name === b.name) throw new UsageError("the two images have the same file name; rename one so the votes can be told apart");
  return {
    pairs: [{ pair_id: "pair-1", a: { id: a.name, image_url: a.dataUri }, b: { id: b.name, image_url: b.dataUri } }],
    ...audienceOf(flags),
    ...(flags.goal ? { goal: flags.goal } : {}),
    ...(flags.platform ? { platform: flags.platform } : {}),
  } as PairwiseInput;
}
