import { parseWith, RankAudiencesRequest } from "@adrank/contracts";
import type { AudienceItemInput } from "./client.ts";

export type AudiencesCheck = { ok: true; value: AudienceItemInput[] } | { ok: false; error: string; field: string | null };

// The audiences are checked inside a request whose one asset is always valid, so the first
// issue is always theirs: the request schema holds the count and unique-names rules, and its
// sentences and fields (`audiences[2].demographics.ageRange`) are the ones a 422 would carry.
const PLACEHOLDER_ASSETS = [{ url: "https://example.com/creative.png" }];

/**
 * The API's own check of a `rankAcrossAudiences` request's `audiences`, run before any call:
 * each item's form (`{ audience_id }` or an inline audience with valid demographics), 2 to 5
 * of them, inline names unique without regard to case or surrounding spaces. The same sentence
 * and `field` a 422 would carry, for tools that read audiences from a file and want to point at
 * the bad one. A saved audience's name is known only to the server, which checks it too.
 *
 * @example
 * checkAudiences([{ name: "Runners" }, { name: "runners " }]);
 * // { ok: false, error: "audiences[1].name must be unique among the request's audiences (…).", field: "audiences[1].name" }
 */
export function checkAudiences(audiences: unknown): AudiencesCheck {
  const parsed = parseWith(RankAudiencesRequest, { assets: PLACEHOLDER_ASSETS, audiences });
  if (parsed.ok) return { ok: true, value: parsed.value.audiences };
  return { ok: false, error: parsed.error.body.error, field: parsed.error.body.field ?? null };
}
