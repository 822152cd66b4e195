import { describe, expect, it } from "vitest";
import { audienceNameKey as contractNameKey, LIMITS, RankAudiencesRequest, RankRequest } from "@adrank/contracts";
import type { Audience } from "../api.ts";
import { audienceItem, audienceNameKey, audiencesProblem, duplicateOf, MAX_AUDIENCES, newAudienceDraft, singleAudienceFields, type AudienceDraft } from "./audience-drafts.ts";

const inline = (key: number, name: string, extra: Partial<AudienceDraft> = {}): AudienceDraft => ({ ...newAudienceDraft(key, name), ...extra });
const SAVED: Audience[] = [{ id: "aud_skeptics", name: "Skeptics", description: null, demographics: { adSkepticism: "very-high" } }];
const ASSETS = [{ url: "data:image/png;base64,iVBORw0KGgo=", id: "a.png" }];

describe("audience names in the playground's form", () => {
  it("compare exactly as the contract compares them", () => {
    const names = ["Runners", " runners ", "RUNNERS\t", "Café", "Cafe\u0301", "İstanbul", "Straße", "STRASSE", "", "  "];
    for (const name of names) expect(audienceNameKey(name), JSON.stringify(name)).toBe(contractNameKey(name));
  });

  it("allow as many audiences as the API does", () => {
    expect(MAX_AUDIENCES).toBe(LIMITS.audiencesMax);
  });

  it("find a later audience named like an earlier one, ignoring case and surrounding spaces, saved audiences by their saved name", () => {
    const drafts = [inline(1, "Bargain hunters"), inline(2, " bargain HUNTERS "), inline(3, "skeptics"), inline(4, "", { savedId: "aud_skeptics" }), inline(5, "Everyone else")];
    expect(duplicateOf(drafts, SAVED)).toEqual([null, 0, null, 2, null]);
  });

  it("refuse duplicate and missing names before sending, counting audiences from 1", () => {
    expect(audiencesProblem([inline(1, "Bargain hunters"), inline(2, "Skeptics"), inline(3, "bargain hunters ")], SAVED)).toBe(
      "Audiences 1 and 3 are both called “Bargain hunters”: give each audience a name of its own (names are compared ignoring case and surrounding spaces).",
    );
    expect(audiencesProblem([inline(1, "Skeptics"), inline(2, "", { savedId: "aud_skeptics" })], SAVED)).toMatch(/^Audiences 1 and 2 are both called “Skeptics”/);
    expect(audiencesProblem([inline(1, "Bargain hunters"), inline(2, "   ")], SAVED)).toBe("Audience 2 needs a name, or pick a saved audience for it.");
    expect(audiencesProblem([inline(1, "Bargain hunters"), inline(2, "Skeptics")], SAVED)).toBeNull();
    // One audience is a plain ranking: an empty name there means "General audience".
    expect(audiencesProblem([inline(1, "")], SAVED)).toBeNull();
  });

  it("build a ranking across audiences the contract accepts, with only the demographics that are set", () => {
    const drafts = [
      inline(1, "Bargain hunters", { description: "coupon clippers", demographics: { priceSensitivity: "very-high", ageRange: "" } }),
      inline(2, "", { savedId: "aud_skeptics" }),
      inline(3, "Everyone else"),
    ];
    const items = drafts.map(audienceItem);
    expect(items).toEqual([{ name: "Bargain hunters", description: "coupon clippers", demographics: { priceSensitivity: "very-high" } }, { audience_id: "aud_skeptics" }, { name: "Everyone else" }]);
    expect(RankAudiencesRequest.safeParse({ assets: ASSETS, audiences: items }).success).toBe(true);
  });

  it("build nothing the contract would accept where the form refuses duplicate names", () => {
    const drafts = [inline(1, "Skeptics"), inline(2, " skeptics")];
    expect(audiencesProblem(drafts, [])).not.toBeNull();
    expect(RankAudiencesRequest.safeParse({ assets: ASSETS, audiences: drafts.map(audienceItem) }).success).toBe(false);
  });

  it("send one audience as a plain ranking's audience, named General audience when left empty", () => {
    expect(singleAudienceFields(inline(1, ""))).toEqual({ audience: { name: "General audience" } });
    expect(singleAudienceFields(inline(1, "", { savedId: "aud_skeptics" }))).toEqual({ audience_id: "aud_skeptics" });
    const withDemographics = singleAudienceFields(inline(1, "Skeptics", { demographics: { adSkepticism: "very-high" } }));
    expect(withDemographics).toEqual({ audience: { name: "Skeptics", demographics: { adSkepticism: "very-high" } } });
    expect(RankRequest.safeParse({ assets: ASSETS, ...withDemographics }).success).toBe(true);
  });
});
