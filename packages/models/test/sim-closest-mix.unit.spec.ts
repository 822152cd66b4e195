import { describe, expect, it } from "vitest";
import { closestInTable, mixTable, type Candidate, type MixTable } from "../src/sim/closest-mix.ts";

type Lists = ReadonlyArray<ReadonlyArray<Candidate | null>>;

/**
 * The exhaustive search the table replaced, as it was: every mix in list order, the first
 * strictly closer one kept. The table must pick exactly what this picks.
 */
function exhaustiveClosestMix(lists: Lists, target: number): { mix: Array<Candidate | null>; error: number } {
  const meanOf = (sum: number, count: number) => (count ? sum / count : 0);
  const pick: number[] = lists.map(() => 0);
  let best: number[] = [...pick];
  let error = Infinity;
  const visit = (depth: number, sum: number, count: number): void => {
    const list = lists[depth];
    if (!list) {
      const e = Math.abs(meanOf(sum, count) - target);
      if (e < error) {
        error = e;
        best = [...pick];
      }
      return;
    }
    list.forEach((entry, i) => {
      pick[depth] = i;
      const stance = entry?.stance ?? null;
      visit(depth + 1, stance === null ? sum : sum + stance, stance === null ? count : count + 1);
    });
  };
  visit(0, 0, 0);
  return { mix: best.map((i, depth) => lists[depth]![i] ?? null), error };
}

/** A seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The stance reader's grades, so sums collide and ties happen as they do in real answers. */
const GRADES = [-1, -0.85, -0.7, -0.55, -0.5, -0.45, -0.35, -0.25, -0.15, 0, 0.15, 0.25, 0.35, 0.45, 0.5, 0.55, 0.7, 0.75, 0.85, 1];

/** Lists shaped like an answer's: one verdict, three reactions, a closing lean, with skips and stance-free sentences. */
function answerLikeLists(next: () => number, n: number): Lists {
  const entry = (k: number): Candidate | null => {
    const roll = next();
    if (roll < 0.12) return null;
    if (roll < 0.2) return { text: `plain ${n}.${k}`, stance: null };
    const stance = roll < 0.85 ? GRADES[Math.floor(next() * GRADES.length)]! : next() * 2 - 1;
    return { text: `graded ${n}.${k}`, stance };
  };
  const list = (length: number) => Array.from({ length }, (_, k) => entry(k));
  return [list(1), list(1 + Math.floor(next() * 7)), list(1 + Math.floor(next() * 7)), list(1 + Math.floor(next() * 7)), list(Math.floor(next() * 9))];
}

/** Targets that stress the search: a grid, reachable averages, and the midpoints where two averages tie. */
function targetsFor(table: MixTable): number[] {
  const means = [...table.means];
  const midpoints = means.slice(1).map((m, i) => (m + means[i]!) / 2);
  const grid = Array.from({ length: 45 }, (_, i) => -1.1 + i * 0.05);
  return [...grid, ...means.filter((_, i) => i % 4 === 0), ...midpoints, 0, -0, Number.NaN, Infinity, -Infinity];
}

function expectSamePick(lists: Lists, target: number, table = mixTable(lists)): void {
  const expected = exhaustiveClosestMix(lists, target);
  const actual = closestInTable(table, target);
  expect(Object.is(actual.error, expected.error), `error for target ${target}`).toBe(true);
  expect(actual.mix).toHaveLength(expected.mix.length);
  // The same sentence objects, not merely equal ones: the very mix the search found first.
  actual.mix.forEach((c, depth) => expect(c, `pick ${depth} for target ${target}`).toBe(expected.mix[depth]));
}

describe("closest mix by table", () => {
  it("picks exactly what the exhaustive search picks, ties included, over many lists and targets", () => {
    const next = random(21);
    let compared = 0;
    for (let n = 0; n < 60; n++) {
      const lists = answerLikeLists(next, n);
      const table = mixTable(lists);
      for (const target of targetsFor(table)) {
        expectSamePick(lists, target, table);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(5_000);
  });

  it("keeps the first mix in list order when several reach the same average", () => {
    const a = { text: "a", stance: 0.5 };
    const b = { text: "b", stance: 0.5 };
    const c = { text: "c", stance: -0.5 };
    const lists: Lists = [[a, b], [c, null, { text: "plain", stance: null }]];
    // a + c, b + c average 0; a alone, b alone average 0.5: the first of each wins.
    expect(closestInTable(mixTable(lists), 0.1).mix).toEqual([a, c]);
    expect(closestInTable(mixTable(lists), 0.4).mix).toEqual([a, null]);
    // Equally far from 0 and 0.5: the earlier mix in list order, a + c, stands.
    expect(closestInTable(mixTable(lists), 0.25).mix).toEqual([a, c]);
    for (const target of [0.1, 0.25, 0.4]) expectSamePick(lists, target);
  });

  it("answers like the search when nothing can be matched: an empty list, or a NaN target", () => {
    const x = { text: "x", stance: 0.3 };
    for (const lists of [[[x], []], [[], [x]], [[x], [x]]] as Lists[]) {
      for (const target of [Number.NaN, 0.3, Infinity]) expectSamePick(lists, target);
    }
  });
});
