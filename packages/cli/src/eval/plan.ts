import { createHash } from "node:crypto";
import { LIMITS } from "@adrank/sdk";
import { chunked } from "./chunked.ts";
import { groupLabel, type EvalDataset, type EvalGroupKey, type OutcomeRow, type PairRow } from "./dataset.ts";
import { sameCreativesOf, sideBySideBatches, type RowGroup } from "./side-by-side.ts";

export { chunked } from "./chunked.ts";

// How a labelled dataset becomes API requests: one group (campaign, audience, goal) is one
// ranking when it fits in one, else several; groups that differ only by audience over the
// same creatives are ranked side by side in one request; labelled pairs go ten to a panel request.

export interface PlannedGroup {
  key: EvalGroupKey;
  /** "campaign / audience / goal": the stratum of the group's figures, and its row in the table. */
  label: string;
}

/** One audience of a side-by-side request: its group, and that group's rows in the order of the request's assets. */
export interface SideBySideAudience {
  group: number;
  rows: OutcomeRow[];
}

export type PlannedRequest =
  | { index: number; kind: "rank"; group: number; rows: OutcomeRow[] }
  /** POST /api/v1/rank/audiences: the same creatives for 2 to 5 audiences; the assets are the first audience's rows. */
  | { index: number; kind: "rank-audiences"; audiences: SideBySideAudience[] }
  | { index: number; kind: "pairwise"; group: number; rows: PairRow[] };

export interface EvalPlan {
  kind: EvalDataset["kind"];
  groups: PlannedGroup[];
  /** In the order they are sent; `index` is the position (0-based), stable for a dataset and its settings. */
  requests: PlannedRequest[];
}

export interface PlanOptions {
  /**
   * Rank groups that differ only by audience side by side (true by default). --record-outcomes
   * turns it off: POST /api/v1/outcomes records against rank requests only.
   */
  sideBySide?: boolean;
}

const groupId = (key: EvalGroupKey) => JSON.stringify([key.campaign, "id" in key.audience ? { id: key.audience.id } : { name: key.audience.name }, key.goal]);

/**
 * Rows split into groups, in the order each group first appears in the file, each group's rows
 * in file order.
 */
function grouped<R extends { group: EvalGroupKey }>(rows: readonly R[]): Array<{ key: EvalGroupKey; rows: R[] }> {
  const groups = new Map<string, { key: EvalGroupKey; rows: R[] }>();
  for (const row of rows) {
    const id = groupId(row.group);
    const group = groups.get(id) ?? { key: row.group, rows: [] };
    group.rows.push(row);
    groups.set(id, group);
  }
  return [...groups.values()];
}

/**
 * The requests of outcome groups. A side-by-side batch is planned where its first group is, its
 * creatives dealt in that group's file order, so that every audience of it has the same
 * creatives in each ranking; the batch's other groups plan nothing of their own.
 */
function outcomeRequests(rowGroups: readonly RowGroup[], sideBySide: boolean): PlannedRequest[] {
  const batches = sideBySide ? sideBySideBatches(rowGroups) : [];
  const batchFrom = new Map(batches.map((b) => [b[0]!, b]));
  const batched = new Set(batches.flat());
  const requests: PlannedRequest[] = [];
  rowGroups.forEach((group, g) => {
    const batch = batchFrom.get(g);
    if (batch) {
      for (const rows of chunked(group.rows, LIMITS.assetsMax)) {
        const audiences = batch.map((member) => ({ group: member, rows: member === g ? rows : sameCreativesOf(rows, rowGroups[member]!.rows) }));
        requests.push({ index: requests.length, kind: "rank-audiences", audiences });
      }
    } else if (!batched.has(g)) {
      for (const rows of chunked(group.rows, LIMITS.assetsMax)) requests.push({ index: requests.length, kind: "rank", group: g, rows });
    }
  });
  return requests;
}

/** The requests that score a dataset: rankings of at most LIMITS.assetsMax, panels of at most LIMITS.pairsMax pairs. */
export function planOf(dataset: EvalDataset, { sideBySide = true }: PlanOptions = {}): EvalPlan {
  if (dataset.kind === "outcomes") {
    const rowGroups = grouped(dataset.rows);
    return { kind: "outcomes", groups: rowGroups.map((g) => ({ key: g.key, label: groupLabel(g.key) })), requests: outcomeRequests(rowGroups, sideBySide) };
  }
  const groups: PlannedGroup[] = [];
  const requests: PlannedRequest[] = [];
  for (const group of grouped(dataset.rows)) {
    const g = groups.push({ key: group.key, label: groupLabel(group.key) }) - 1;
    for (const rows of chunked(group.rows, LIMITS.pairsMax)) requests.push({ index: requests.length, kind: "pairwise", group: g, rows });
  }
  return { kind: "pairs", groups, requests };
}

/** The groups a planned request scores: one, or each audience's of a side-by-side request. */
export const groupsOf = (request: PlannedRequest): number[] => (request.kind === "rank-audiences" ? request.audiences.map((a) => a.group) : [request.group]);

/**
 * What each request of the plan is (its kind, groups and rows), hashed: a resume file answers
 * request i of the run that wrote it, so it is used only when request i is still the same request.
 */
export function planFingerprint(plan: EvalPlan): string {
  const shape = plan.requests.map((r) => {
    if (r.kind === "rank-audiences") return [r.kind, r.audiences.map((a) => [a.group, a.rows.map((row) => row.line)])];
    return [r.kind, r.group, r.rows.map((row) => row.line)];
  });
  return createHash("sha256").update(JSON.stringify(shape)).digest("hex");
}
