import { describe, expect, it } from "vitest";
import { PANEL_SEATS, presentPanel, presentVote, tallyPanel, type CastVote, type Side } from "../src/index.ts";

const ids = { a: "hero", b: "variant" };
const ballots = (...winners: Array<Side | null>): CastVote[] =>
  winners.map((winner, i) => ({ ...PANEL_SEATS[i]!, winner, response: winner ? `WINNER: ${winner === "a" ? 1 : 2}` : "", ...(winner ? {} : { invalidReason: "The voter model (openai) is unavailable." }) }));

describe("presentVote", () => {
  it("names the winner and loser by asset id", () => {
    expect(presentVote(ballots("b")[0]!, ids)).toEqual({ voterId: "voter-1", order: "ab", winnerId: "variant", loserId: "hero", response: "WINNER: 2", valid: true });
    // A mixed panel: each vote names the model that cast it.
    expect(presentVote({ ...ballots("b")[0]!, model: "gemini:gemini-2.5-flash", simulated: false }, ids)).toMatchObject({ winnerId: "variant", model: "gemini:gemini-2.5-flash", simulated: false });
  });

  it("keeps an invalid vote with empty ids and its reason", () => {
    expect(presentVote(ballots(null)[0]!, ids)).toEqual({ voterId: "voter-1", order: "ab", winnerId: "", loserId: "", response: "", valid: false, invalidReason: "The voter model (openai) is unavailable." });
  });
});

describe("presentPanel", () => {
  it("a done panel has the winner's id, rounded rates and no error", () => {
    const votes = ballots("a", "a", "b", "a", "a");
    const p = presentPanel({ pairId: "p1", aId: ids.a, bId: ids.b, votes, tally: tallyPanel(votes) });
    expect(p).toMatchObject({ pairId: "p1", aId: "hero", bId: "variant", status: "done", winnerId: "hero", votesFor: 4, votesTotal: 5, winRate: 0.8, consistency: 0.6667 });
    expect(p).not.toHaveProperty("error");
    expect(p.votes).toHaveLength(5);
  });

  it("a partial tie has no winner fields and says how many votes counted and why the others did not", () => {
    const votes = ballots("a", "b", null, null, null);
    const p = presentPanel({ pairId: "p2", aId: ids.a, bId: ids.b, votes, tally: tallyPanel(votes) });
    expect(p).toEqual(expect.objectContaining({ status: "partial", votesTotal: 2, error: "Only 2 of 5 votes were valid (The voter model (openai) is unavailable.)." }));
    for (const key of ["winnerId", "votesFor", "winRate", "consistency"]) expect(p).not.toHaveProperty(key);
  });

  it("an explicit error wins over the default sentence", () => {
    const p = presentPanel({ pairId: "p3", aId: ids.a, bId: ids.b, votes: [], tally: tallyPanel([]), error: "Image a (hero) could not be used." });
    expect(p).toMatchObject({ status: "error", votes: [], votesTotal: 0, error: "Image a (hero) could not be used." });
  });
});
