import { describe, expect, it } from "vitest";
import type { AudienceSensitivity } from "@adrank/contracts";
import { personaWarnings } from "../src/index.ts";

const pair = (a: string, b: string, indifferent: boolean, compared = 3): AudienceSensitivity => ({
  audience_a: a,
  audience_b: b,
  assets_compared: compared,
  rank_correlation: 1,
  largest_score_change: 0.02,
  persona_made_no_difference: indifferent,
});

describe("personaWarnings", () => {
  it("warns once per pair of audiences that made no difference, naming both", () => {
    const warnings = personaWarnings([pair("Runners", "Retirees", false), pair("Runners", "Joggers", true), pair("Retirees", "Joggers", false)]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.code).toBe("persona_made_no_difference");
    expect(warnings[0]!.message).toContain('"Runners" and "Joggers"');
    expect(warnings[0]!.message).toContain("changed what the models said, not what they decided");
  });

  it("warns for each flagged pair in the pairs' order", () => {
    const warnings = personaWarnings([pair("A", "B", true), pair("A", "C", true, 1)]);
    expect(warnings.map((w) => w.message.slice(0, 13))).toEqual(['"A" and "B" s', '"A" and "C" s']);
    expect(warnings[1]!.message).toContain("the one asset they share");
  });

  it("says nothing when every persona made a difference", () => {
    expect(personaWarnings([pair("A", "B", false)])).toEqual([]);
  });
});
