import { describe, expect, it } from "vitest";
import { votersUsed } from "../src/index.ts";

describe("votersUsed", () => {
  it("names each model of a mixed panel once, in seat order, and flags the sim", () => {
    const votes = [
      { model: "openai:gpt-5-mini", simulated: false },
      { model: "sim:sim-voter", simulated: true },
      { model: "openai:gpt-5-mini", simulated: false },
      {},
      { model: "gemini:gemini-2.5-flash", simulated: false },
    ];
    expect(votersUsed(votes)).toEqual({ voters: ["openai:gpt-5-mini", "sim:sim-voter", "gemini:gemini-2.5-flash"], simulated: true });
  });

  it("is not simulated when only real models voted, and names nobody when no model answered", () => {
    expect(votersUsed([{ model: "anthropic:claude-haiku-4-5", simulated: false }])).toEqual({ voters: ["anthropic:claude-haiku-4-5"], simulated: false });
    expect(votersUsed([{}, {}])).toEqual({ voters: [], simulated: false });
  });

  it("reads an older voter's sim from its model name", () => {
    expect(votersUsed([{ model: "sim:sim-voter" }]).simulated).toBe(true);
  });
});
