import { describe, expect, it } from "vitest";
import { PANEL_SEATS, PANEL_SIZE, tallyPanel, type CastVote, type Side } from "../src/index.ts";

/** Ballots for the five seats in order; null is an invalid vote. */
function ballots(...winners: Array<Side | null>): CastVote[] {
  return winners.map((winner, i) => ({ ...PANEL_SEATS[i]!, winner, response: winner ? `WINNER: ${winner}` : "no verdict" }));
}

describe("panel seats", () => {
  it("has five voters, three shown ab and two shown ba, with distinct ids", () => {
    expect(PANEL_SEATS).toHaveLength(PANEL_SIZE);
    expect(PANEL_SEATS.filter((s) => s.order === "ab")).toHaveLength(3);
    expect(PANEL_SEATS.filter((s) => s.order === "ba")).toHaveLength(2);
    expect(new Set(PANEL_SEATS.map((s) => s.voterId)).size).toBe(5);
  });
});

describe("tallyPanel", () => {
  // Seats: 1 ab, 2 ba, 3 ab, 4 ba, 5 ab.
  it("a unanimous panel is done, winRate 1 and consistency 1", () => {
    expect(tallyPanel(ballots("a", "a", "a", "a", "a"))).toEqual({ status: "done", validVotes: 5, winner: "a", votesFor: 5, votesTotal: 5, winRate: 1, consistency: 1 });
  });

  it("a 3-2 panel: winRate 0.6; the winner took all ab votes and none of ba, consistency 0", () => {
    // a wins seats 1, 3, 5 (all shown ab), b wins 2 and 4 (all shown ba): a pure first-position effect.
    const t = tallyPanel(ballots("a", "b", "a", "b", "a"));
    expect(t).toMatchObject({ status: "done", winner: "a", votesFor: 3, votesTotal: 5, winRate: 0.6 });
    expect(t.consistency).toBeCloseTo(0, 12);
  });

  it("hand-computed consistency: b wins 4-1, share_ab 2/3, share_ba 2/2 -> 1 - 1/3", () => {
    const t = tallyPanel(ballots("a", "b", "b", "b", "b"));
    expect(t).toMatchObject({ status: "done", winner: "b", votesFor: 4, winRate: 0.8 });
    expect(t.consistency).toBeCloseTo(2 / 3, 12);
  });

  it("invalid votes are not counted: 3 valid of 5 is partial, winRate over valid votes", () => {
    const t = tallyPanel(ballots("b", null, "b", null, "a"));
    // valid: seat1 ab b, seat3 ab b, seat5 ab a -> no ba vote: share_ba = winRate, so consistency 1
    expect(t).toMatchObject({ status: "partial", validVotes: 3, winner: "b", votesFor: 2, votesTotal: 3 });
    expect(t.winRate).toBeCloseTo(2 / 3, 12);
    expect(t.consistency).toBe(1);
  });

  it("a tie among the valid votes names no winner and no rates", () => {
    expect(tallyPanel(ballots("a", "b", null, null, null))).toEqual({ status: "partial", validVotes: 2, winner: null, votesFor: null, votesTotal: 2, winRate: null, consistency: null });
  });

  it("no valid vote is an error", () => {
    expect(tallyPanel(ballots(null, null, null, null, null))).toMatchObject({ status: "error", validVotes: 0, winner: null, votesTotal: 0 });
    expect(tallyPanel([])).toMatchObject({ status: "error", validVotes: 0 });
  });

  it("one valid vote is partial with a winner at winRate 1", () => {
    expect(tallyPanel(ballots(null, "b", null, null, null))).toMatchObject({ status: "partial", winner: "b", votesFor: 1, votesTotal: 1, winRate: 1, consistency: 1 });
  });
});
