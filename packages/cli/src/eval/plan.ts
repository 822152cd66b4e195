import { LIMITS } from "@adrank/sdk";
import { groupLabel, type EvalDataset, type EvalGroupKey, type OutcomeRow, type PairRow } from "./dataset.ts";

// How a labelled dataset becomes API requests: one group (campaign, audience, goal) is one
// ranking when it fits in one, else several; labelled pairs go ten to a panel request.

export interface PlannedGroup {
  key: EvalGroupKey;
  /** "campaign / audience / goal": the stratum of the group's figures, and its row in the table. */
  label: string;
}

export type PlannedRequest =
  | { index: number; kind: "rank"; group: number; rows: OutcomeRow[] }
  | { index: number; kind: "pairwise"; group: number; rows: PairRow[] };

export interface EvalPlan {
  kind: EvalDataset["kind"];
  groups: PlannedGroup[];
  /** In the order they are sent; `index` is the position (0-based), stable for a dataset and its settings. */
  requests: PlannedRequest[];
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
 * A group's rows dealt into as few requests of at most `max` as will hold them: row i (in file
 * order) goes to request i mod k. Dealt rather than cut, so that a file sorted by outcome does
 * not put all the best creatives into one ranking, and the requests differ by one row at most.
 *
 * @example
 * chunked([1, 2, 3, 4, 5], 2); // [[1, 4], [2, 5], [3]]
 */
export function chunked<T>(rows: readonly T[], max: number): T[][] {
  const k = Math.ceil(rows.length / max);
  const chunks: T[][] = Array.from({ length: k }, () => []);
  rows.forEach((row, i) => chunks[i % k]!.push(row));
  return chunks;
}

/** The requests that score a dataset: rankings of at most LIMITS.assetsMax, panels of at most LIMITS.pairsMax pairs. */
export function planOf(dataset: EvalDataset): EvalPlan {
  const groups: PlannedGroup[] = [];
  const requests: PlannedRequest[] = [];
  if (dataset.kind === "outcomes") {
    for (const group of grouped(dataset.rows)) {
      const g = groups.push({ key: group.key, label: groupLabel(group.key) }) - 1;
      for (const rows of chunked(group.rows, LIMITS.assetsMax)) requests.push({ index: requests.length, kind: "rank", group: g, rows });
    }
  } else {
    for (const group of grouped(dataset.rows)) {
      const g = groups.push({ key: group.key, label: groupLabel(group.key) }) - 1;
      for (const rows of chunked(group.rows, LIMITS.pairsMax)) requests.push({ index: requests.length, kind: "pairwise", group: g, rows });
    }
  }
  return { kind: dataset.kind, groups, requests };
}
