import type { AudienceItemInput, PairwiseInput, RankAudiencesInput, RankInput } from "@adrank/sdk";
import { readImageFile } from "../image-file.ts";
import type { EvalGroupKey, ImageSource, OutcomeRow } from "./dataset.ts";
import type { PlannedGroup, PlannedRequest } from "./plan.ts";
import type { EvalSettings } from "./run-settings.ts";

/** What the API gets for an image: a file as a data URI, an https URL as it is (the API fetches it). */
export const imageUrlOf = async (source: ImageSource): Promise<string> => (source.kind === "url" ? source.url : (await readImageFile(source.path)).dataUri);

/**
 * The group's audience in the request. --audience-description belongs to --audience-name, so
 * it goes with the groups of that name only.
 */
function audienceOf(key: EvalGroupKey, settings: EvalSettings): Pick<RankInput, "audience" | "audience_id"> {
  if ("id" in key.audience) return { audience_id: key.audience.id };
  const fallback = settings.audience !== null && "name" in settings.audience ? settings.audience : null;
  const description = fallback?.name === key.audience.name ? fallback.description : null;
  return { audience: { name: key.audience.name, ...(description ? { description } : {}) } };
}

/** The same audience as one item of a side-by-side request's `audiences`. */
function audienceItemOf(key: EvalGroupKey, settings: EvalSettings): AudienceItemInput {
  const { audience, audience_id } = audienceOf(key, settings);
  return audience_id !== undefined ? { audience_id } : audience!;
}

/** The pair's id and its two sides' asset ids, named after the dataset line so votes read back to it. */
export const pairIdsOf = (line: number) => ({ pair: `line-${line}`, a: `line-${line}-a`, b: `line-${line}-b` });

/** The rows as assets, each under its row id; one image at a time, so a large group's files are not all held in memory at once. */
async function assetsOf(rows: readonly OutcomeRow[]): Promise<RankInput["assets"]> {
  const assets: RankInput["assets"] = [];
  for (const row of rows) assets.push({ url: await imageUrlOf(row.source), id: row.id, ...(row.copy ? { copy_context: row.copy } : {}) });
  return assets;
}

export type RequestBody = { kind: "rank"; body: RankInput } | { kind: "rank-audiences"; body: RankAudiencesInput } | { kind: "pairwise"; body: PairwiseInput };

/**
 * The body of one planned request: each creative's asset id is its row id, so scores map back
 * to rows. A side-by-side request sends its first audience's rows; the other audiences' rows
 * are the same creatives in the same order (see finishedAudienceRankings).
 */
export async function requestBodyOf(request: PlannedRequest, groups: readonly PlannedGroup[], settings: EvalSettings): Promise<RequestBody> {
  const ranking = { ...(settings.platform ? { platform: settings.platform } : {}), ...(settings.asset_type ? { asset_type: settings.asset_type as RankInput["asset_type"] } : {}), refine_close_pairs: settings.refine };
  if (request.kind === "rank-audiences") {
    const first = request.audiences[0]!;
    const audiences = request.audiences.map((a) => audienceItemOf(groups[a.group]!.key, settings));
    // The audiences of one request share their campaign and goal (see sideBySideBatches).
    const goal = groups[first.group]!.key.goal as RankAudiencesInput["goal"];
    return { kind: "rank-audiences", body: { assets: await assetsOf(first.rows), audiences, goal, ...ranking } as RankAudiencesInput };
  }
  const key = groups[request.group]!.key;
  const common = { ...audienceOf(key, settings), goal: key.goal as RankInput["goal"], ...(settings.platform ? { platform: settings.platform } : {}) };
  if (request.kind === "rank") return { kind: "rank", body: { assets: await assetsOf(request.rows), ...common, ...ranking } as RankInput };
  const pairs: PairwiseInput["pairs"] = [];
  // Voters are told what a creative is only when --asset-type says so.
  const type = settings.asset_type ? { asset_type: settings.asset_type as NonNullable<PairwiseInput["pairs"][number]["a"]["asset_type"]> } : {};
  for (const row of request.rows) {
    const ids = pairIdsOf(row.line);
    pairs.push({ pair_id: ids.pair, a: { id: ids.a, image_url: await imageUrlOf(row.a.source), ...type }, b: { id: ids.b, image_url: await imageUrlOf(row.b.source), ...type } });
  }
  return { kind: "pairwise", body: { pairs, ...common } as PairwiseInput };
}
