import type { AudienceItemInput, RankAudiencesInput } from "@adrank/sdk";
import type { Copy } from "../copy-file.ts";
import type { ImageFile } from "../image-file.ts";
import { assetsOf, rankOptionsOf, type RankFlags } from "./rank-request.ts";

/**
 * The rankAcrossAudiences request: the same assets and options a plain rank sends, and the
 * audiences in the order they were given (the order of the answer's columns).
 *
 * @example
 * rankAudiencesRequestOf({ goal: "scroll-stopping" }, [image], [null], [{ name: "Runners" }, { audience_id: "aud_1" }]);
 */
export function rankAudiencesRequestOf(flags: Omit<RankFlags, "audience-id" | "audience-name" | "audience-description">, images: Array<Pick<ImageFile, "name" | "dataUri">>, copies: Array<Copy | null>, audiences: AudienceItemInput[]): RankAudiencesInput {
  return { assets: assetsOf(images, copies), audiences, ...rankOptionsOf(flags) } as RankAudiencesInput;
}
