import { audienceNameKey, LIMITS } from "@adrank/sdk";
import { chunked } from "./chunked.ts";
import { creativeKeyOf } from "./creative-key.ts";
import type { EvalGroupKey, OutcomeRow } from "./dataset.ts";

// Groups that differ only by audience, over the same creatives, are ranked side by side: one
// POST /api/v1/rank/audiences instead of one ranking per audience. Each audience's ranking in
// its answer is the one POST /api/v1/rank would give it alone, so the figures do not change;
// the creatives then share their rankings, which makes the audiences' figures comparable.

/** A group of outcome rows as the plan reads it: its key and its rows in file order. */
export interface RowGroup {
  key: EvalGroupKey;
  rows: OutcomeRow[];
}

// Audience names must be unique in a request by the API's own rule (audienceNameKey): case,
// surrounding spaces and Unicode form do not count ("Runners" and "runners " are one name).
const audienceKeyOf = (key: EvalGroupKey) => ("id" in key.audience ? `id:${key.audience.id}` : `name:${audienceNameKey(key.audience.name)}`);

/** The group's creatives as a set (sorted keys), or null when a creative repeats in it: its rows could not be told apart. */
function creativeSetOf(rows: readonly OutcomeRow[]): string[] | null {
  const keys = rows.map(creativeKeyOf).sort();
  return keys.some((k, i) => i > 0 && keys[i - 1] === k) ? null : keys;
}

/**
 * The groups (by index) to rank side by side: groups of one campaign and goal whose creatives
 * are the same set, at most LIMITS.audiencesMax audiences to a batch, each batch of at least
 * two, its groups in file order. A group whose audience name another group of its set already
 * has (up to case and spaces) is left out: one request cannot hold both.
 *
 * @example
 * sideBySideBatches([runnersSpring, hikersSpring, runnersFall]); // [[0, 1]]
 */
export function sideBySideBatches(groups: readonly RowGroup[]): number[][] {
  const sets = new Map<string, { audiences: Set<string>; members: number[] }>();
  groups.forEach((group, g) => {
    const creatives = creativeSetOf(group.rows);
    if (creatives === null) return;
    const id = JSON.stringify([group.key.campaign, group.key.goal, creatives]);
    const set = sets.get(id) ?? { audiences: new Set<string>(), members: [] };
    const audience = audienceKeyOf(group.key);
    if (set.audiences.has(audience)) return;
    set.audiences.add(audience);
    set.members.push(g);
    sets.set(id, set);
  });
  // Dealt like a group's rows: six audiences make two requests of three, not one of five and one alone.
  return [...sets.values()].filter((s) => s.members.length > 1).flatMap((s) => chunked(s.members, LIMITS.audiencesMax));
}

/**
 * The rows of another group of the same creatives, in the order of `assets`: row i holds the
 * creative of assets[i]. Matched by image and copy, never by id.
 */
export function sameCreativesOf(assets: readonly OutcomeRow[], rows: readonly OutcomeRow[]): OutcomeRow[] {
  const byCreative = new Map(rows.map((r) => [creativeKeyOf(r), r]));
  return assets.map((asset) => {
    const row = byCreative.get(creativeKeyOf(asset));
    if (!row) throw new Error(`no row of the same creative as line ${asset.line}`);
    return row;
  });
}
