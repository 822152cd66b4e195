import { describe, expect, it } from "vitest";
import { AUDIENCES_ANSWER } from "./audiences-answer.test-fixture.ts";
import { scoreMatrix } from "./score-matrix.ts";

const IMAGES = [{ name: "spring-sale.png", dataUri: "data:spring-thumb" }, { name: "summer-launch.png", dataUri: "data:summer-thumb" }];

describe("the score matrix of a ranking across audiences", () => {
  const matrix = scoreMatrix(AUDIENCES_ANSWER, IMAGES);

  it("has the audiences across and the images down, both in the request's order", () => {
    expect(matrix.audiences).toEqual(["Bargain hunters", "Skeptics", "Everyone else"]);
    expect(matrix.rows.map((r) => r.name)).toEqual(["spring-sale.png", "summer-launch.png", "autumn-promo.png"]);
    expect(matrix.rows.map((r) => r.cells.map((c) => c.audience))).toEqual(Array.from({ length: 3 }, () => matrix.audiences));
  });

  it("gives each cell the image's score and its place in that audience's ranking", () => {
    const spring = matrix.rows[0]!;
    expect(spring.cells.map((c) => [c.score, c.rank, c.rankedCount])).toEqual([[3.9, 1, 3], [2.8, 2, 2], [3.1, 2, 3]]);
    expect(spring.spread).toBe(1.1);
  });

  it("marks one best cell per row: the audience that scores the image highest", () => {
    expect(matrix.rows.map((r) => r.cells.filter((c) => c.best).map((c) => c.audience))).toEqual([["Bargain hunters"], ["Skeptics"], ["Everyone else"]]);
  });

  it("marks no best cell where every audience gave the same score", () => {
    const even = { ...AUDIENCES_ANSWER, comparison: AUDIENCES_ANSWER.comparison.map((c) => ({ ...c, spread: 0 })) };
    expect(scoreMatrix(even, IMAGES).rows.flatMap((r) => r.cells).some((c) => c.best)).toBe(false);
  });

  it("shows a failed cell with the audience's reason", () => {
    const autumnForSkeptics = matrix.rows[2]!.cells[1]!;
    expect(autumnForSkeptics).toMatchObject({ score: null, rank: null, error: "The image could not be read." });
    expect(matrix.rows[2]!.cells[0]!.error).toBeNull();
  });

  it("takes each row's thumbnail from the page's images by name, none when the image was removed since", () => {
    expect(matrix.rows.map((r) => r.thumbnail)).toEqual(["data:spring-thumb", "data:summer-thumb", undefined]);
  });
});
