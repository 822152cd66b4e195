import { describe, expect, it } from "vitest";
import { audienceNameKey, parseWith, RankAudiencesRequest } from "../src/index.ts";

type Body = Record<string, unknown>;
const assets = [{ url: "https://cdn.example.com/ad.png", id: "ad" }];
const body = (audiences: unknown[], extra: Body = {}): Body => ({ assets, audiences, ...extra });
const runners = { name: "Trail runners", demographics: { priceSensitivity: "high" } };
const parents = { name: "New parents" };

const refusal = (input: unknown) => {
  const parsed = parseWith(RankAudiencesRequest, input);
  if (parsed.ok) throw new Error("expected a refusal");
  return parsed.error;
};

describe("RankAudiencesRequest", () => {
  it("takes inline and saved audiences side by side, with rank's defaults", () => {
    const parsed = parseWith(RankAudiencesRequest, body([runners, { audience_id: "aud_1" }]));
    expect(parsed.ok && parsed.value).toMatchObject({ audiences: [runners, { audience_id: "aud_1" }], goal: "purchase-intent", asset_type: "Social Media Post", refine_close_pairs: true, async: false });
  });

  it.each([
    ["one audience", body([runners]), "audiences", "audiences must have at least 2 items."],
    ["six audiences", body([1, 2, 3, 4, 5, 6].map((i) => ({ name: `a${i}` }))), "audiences", "audiences must have at most 5 items."],
    ["no audiences", { assets }, "audiences", "audiences is required."],
    ["rank's single audience", body([runners, parents], { audience: runners }), "audience", "audience is not an allowed property."],
    ["the same name twice, told apart only by case and spaces", body([runners, { name: "  trail RUNNERS " }]), "audiences[1].name", "audiences[1].name must be unique among the request's audiences (compared without regard to case or surrounding spaces)."],
    ["a bad value inside an inline audience is named, not 'invalid'", body([runners, { name: "x", demographics: { urgency: "now" } }]), "audiences[1].demographics.urgency", "audiences[1].demographics.urgency must be one of: none, low, moderate, high, urgent."],
    ["an empty audience_id is named", body([runners, { audience_id: "" }]), "audiences[1].audience_id", "audiences[1].audience_id must not be empty."],
    ["an inline name beside an audience_id", body([runners, { name: "x", audience_id: "aud_1" }]), "audiences[1]", "audiences[1] mixes the properties of its allowed forms; send exactly one of them."],
    ["an audience that is not an object", body([runners, "runners"]), "audiences[1]", "audiences[1] must be an object."],
    ["a webhook without async", body([runners, parents], { webhook_url: "https://hooks.example.com/x" }), "webhook_url", undefined],
  ])("refuses %s", (_name, input, field, error) => {
    const refused = refusal(input);
    expect(refused.status).toBe(422);
    expect(refused.body.field).toBe(field);
    if (error) expect(refused.body.error).toBe(error);
  });

  it("compares names without regard to case, surrounding spaces or Unicode form", () => {
    expect(audienceNameKey(" Café ")).toBe(audienceNameKey("cafe\u0301"));
    expect(audienceNameKey("Runners")).not.toBe(audienceNameKey("Runner"));
  });
});
