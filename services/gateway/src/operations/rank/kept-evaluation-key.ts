import { createHash } from "node:crypto";
import type { ScoreJob } from "@adrank/bus-contracts";
import { canonicalJson } from "@adrank/request-records";

/** What of a score job decides its answer: the rest (ids, deadline) only routes it. */
export type KeyedJob = Pick<ScoreJob, "image" | "layer" | "copy" | "persona">;

/**
 * The key a successful evaluation is kept under and looked up by (issue 36): the SHA-256 (hex)
 * of the canonical JSON of what the score job asks (the normalized image's content hash, the
 * layer, the copy as the job carries it, the whole persona: audience with its demographics,
 * goal, asset type, platform, campaign type) and of who answers it (the scorer's method key).
 * Key order and spacing do not matter; any change of content does. The account is not in the
 * key: it is a column of the kept row and of every query, so one account never reads another's.
 *
 * @example
 * const key = keptEvaluationKey(job, presence.methodKey);
 */
export function keptEvaluationKey(job: KeyedJob, methodKey: string): string {
  const asked = { image: job.image.ref, layer: job.layer, copy: job.copy, persona: job.persona, method: methodKey };
  return createHash("sha256").update(canonicalJson(asked)).digest("hex");
}
