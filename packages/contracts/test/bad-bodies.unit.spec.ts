import { describe, expect, it } from "vitest";
import { DEMOGRAPHIC_VALUES, PairwiseRequest, RankRequest, CreateAudienceRequest, parseWith } from "../src/index.ts";

type Body = Record<string, unknown>;
const asset = (extra: Body = {}) => ({ url: "https://cdn.example.com/ad.png", ...extra });
const rank = (extra: Body = {}): Body => ({ assets: [asset()], audience: { name: "Trail runners" }, ...extra });
const pair = (i = 0, extra: Body = {}) => ({ pair_id: `p${i}`, a: { id: `a${i}`, image_url: "https://cdn.example.com/a.png" }, b: { id: `b${i}`, image_url: "https://cdn.example.com/b.png" }, ...extra });
const pairwise = (extra: Body = {}): Body => ({ pairs: [pair()], audience_id: "aud_1", ...extra });
const without = (body: Body, key: string): Body => Object.fromEntries(Object.entries(body).filter(([k]) => k !== key));
const demographics = (d: Body) => rank({ audience: { name: "x", demographics: d } });

// [description, schema, body, expected field]
const cases: Array<[string, "rank" | "pairwise" | "audience", unknown, string | undefined]> = [
  // rank: required fields, counts and types
  ["rank: assets missing", "rank", without(rank(), "assets"), "assets"],
  ["rank: assets not an array", "rank", rank({ assets: "a.png" }), "assets"],
  ["rank: 0 assets", "rank", rank({ assets: [] }), "assets"],
  ["rank: 21 assets", "rank", rank({ assets: Array.from({ length: 21 }, () => asset()) }), "assets"],
  ["rank: asset not an object", "rank", rank({ assets: ["https://cdn.example.com/a.png"] }), "assets[0]"],
  ["rank: asset url missing", "rank", rank({ assets: [{ id: "x" }] }), "assets[0].url"],
  ["rank: asset url a number", "rank", rank({ assets: [asset({ url: 42 })] }), "assets[0].url"],
  ["rank: http url", "rank", rank({ assets: [asset(), asset(), asset(), asset({ url: "http://cdn.example.com/a.png" })] }), "assets[3].url"],
  ["rank: ftp url", "rank", rank({ assets: [asset({ url: "ftp://cdn.example.com/a.png" })] }), "assets[0].url"],
  ["rank: javascript url", "rank", rank({ assets: [asset({ url: "javascript:alert(1)" })] }), "assets[0].url"],
  ["rank: data:text uri", "rank", rank({ assets: [asset({ url: "data:text/plain;base64,aGk=" })] }), "assets[0].url"],
  ["rank: relative url", "rank", rank({ assets: [asset({ url: "/ads/a.png" })] }), "assets[0].url"],
  ["rank: empty url", "rank", rank({ assets: [asset({ url: "" })] }), "assets[0].url"],
  ["rank: asset id a number", "rank", rank({ assets: [asset({ id: 7 })] }), "assets[0].id"],
  ["rank: asset id empty", "rank", rank({ assets: [asset({ id: "" })] }), "assets[0].id"],
  ["rank: asset id too long", "rank", rank({ assets: [asset({ id: "x".repeat(129) })] }), "assets[0].id"],
  ["rank: asset id with a NUL", "rank", rank({ assets: [asset({ id: "a\u0000b" })] }), "assets[0].id"],
  ["rank: asset id with a newline (log forging)", "rank", rank({ assets: [asset({ id: "a\n{\"level\":60}" })] }), "assets[0].id"],
  ["rank: asset id with an unpaired surrogate", "rank", rank({ assets: [asset({ id: "a\ud800b" })] }), "assets[0].id"],
  ["rank: https url longer than 8192 characters", "rank", rank({ assets: [asset({ url: `https://cdn.example.com/${"a".repeat(8_200)}` })] }), "assets[0].url"],
  ["rank: demographics key longer than 64 characters", "rank", demographics({ ["k".repeat(65)]: "v" }), "audience.demographics"],
  ["pairwise: pair_id with a control character", "pairwise", pairwise({ pairs: [pair(0, { pair_id: "p\u001b[31m" })] }), "pairs[0].pair_id"],
  ["audience: NUL in the name (PostgreSQL cannot store it)", "audience", { name: "a\u0000b" }, "name"],
  ["audience: NUL in a demographics value", "audience", { name: "x", demographics: { hobby: "a\u0000b" } }, "demographics.hobby"],
  ["rank: copy key longer than 64 characters", "rank", rank({ assets: [asset({ copy_context: { ["k".repeat(65)]: "v" } })] }), "assets[0].copy_context"],
  ["rank: unknown asset_type on asset", "rank", rank({ assets: [asset({ asset_type: "Billboard" })] }), "assets[0].asset_type"],
  ["rank: unknown property on asset", "rank", rank({ assets: [asset({ colour: "red" })] }), "assets[0].colour"],
  ["rank: copy_context not an object", "rank", rank({ assets: [asset({ copy_context: "Buy now" })] }), "assets[0].copy_context"],
  ["rank: copy value a number", "rank", rank({ assets: [asset({ copy_context: { adHeadline: 5 } })] }), "assets[0].copy_context.adHeadline"],
  ["rank: copy alias value not a string", "rank", rank({ assets: [asset({ copy_context: { headline: ["a"] } })] }), "assets[0].copy_context.headline"],
  ["rank: copy value too long", "rank", rank({ assets: [asset({ copy_context: { adBody: "x".repeat(5001) } })] }), "assets[0].copy_context.adBody"],
  ["rank: copy too many keys", "rank", rank({ assets: [asset({ copy_context: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"])) })] }), "assets[0].copy_context"],
  // rank: audience one-of
  ["rank: neither audience nor audience_id", "rank", without(rank(), "audience"), "audience"],
  ["rank: both audience and audience_id", "rank", rank({ audience_id: "aud_1" }), "audience"],
  ["rank: audience_id a number", "rank", without(rank({ audience_id: 12 }), "audience"), "audience_id"],
  ["rank: audience_id empty", "rank", without(rank({ audience_id: "" }), "audience"), "audience_id"],
  ["rank: audience not an object", "rank", rank({ audience: "runners" }), "audience"],
  ["rank: audience name missing", "rank", rank({ audience: { description: "x" } }), "audience.name"],
  ["rank: audience name a number", "rank", rank({ audience: { name: 1 } }), "audience.name"],
  ["rank: audience name empty", "rank", rank({ audience: { name: "" } }), "audience.name"],
  ["rank: audience name too long", "rank", rank({ audience: { name: "n".repeat(201) } }), "audience.name"],
  ["rank: audience description a number", "rank", rank({ audience: { name: "x", description: 3 } }), "audience.description"],
  ["rank: audience description too long", "rank", rank({ audience: { name: "x", description: "d".repeat(4001) } }), "audience.description"],
  ["rank: unknown property on audience", "rank", rank({ audience: { name: "x", interests: "running" } }), "audience.interests"],
  ["rank: demographics not an object", "rank", rank({ audience: { name: "x", demographics: "young" } }), "audience.demographics"],
  ...Object.keys(DEMOGRAPHIC_VALUES).map((field): [string, "rank", unknown, string] => [`rank: demographics.${field} bad value`, "rank", demographics({ [field]: "sometimes" }), `audience.demographics.${field}`]),
  ["rank: demographics ageRange a number", "rank", demographics({ ageRange: 30 }), "audience.demographics.ageRange"],
  ["rank: extra demographics value not a string", "rank", demographics({ hobby: 3 }), "audience.demographics.hobby"],
  ["rank: too many extra demographics keys", "rank", demographics(Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`trait${i}`, "x"]))), "audience.demographics"],
  // rank: top-level options
  ["rank: unknown goal", "rank", rank({ goal: "virality" }), "goal"],
  ["rank: goal a number", "rank", rank({ goal: 3 }), "goal"],
  ["rank: unknown request asset_type", "rank", rank({ asset_type: "Billboard" }), "asset_type"],
  ["rank: platform a number", "rank", rank({ platform: 1 }), "platform"],
  ["rank: platform too long", "rank", rank({ platform: "p".repeat(65) }), "platform"],
  ["rank: campaign_type an object", "rank", rank({ campaign_type: {} }), "campaign_type"],
  ["rank: refine_close_pairs a string", "rank", rank({ refine_close_pairs: "yes" }), "refine_close_pairs"],
  ["rank: unknown top-level property", "rank", rank({ priority: "high" }), "priority"],
  ["rank: prototype key at top level", "rank", JSON.parse('{"assets":[{"url":"https://cdn.example.com/a.png"}],"audience":{"name":"x"},"__proto__":{"admin":true}}'), "__proto__"],
  ["rank: constructor key on asset", "rank", rank({ assets: [asset({ constructor: "x" })] }), "assets[0].constructor"],
  ["rank: body an array", "rank", [rank()], undefined],
  ["rank: body a string", "rank", "assets", undefined],
  ["rank: body null", "rank", null, undefined],
  // pairwise
  ["pairwise: pairs missing", "pairwise", without(pairwise(), "pairs"), "pairs"],
  ["pairwise: 0 pairs", "pairwise", pairwise({ pairs: [] }), "pairs"],
  ["pairwise: 11 pairs", "pairwise", pairwise({ pairs: Array.from({ length: 11 }, (_, i) => pair(i)) }), "pairs"],
  ["pairwise: pair_id missing", "pairwise", pairwise({ pairs: [pair(0), without(pair(1), "pair_id")] }), "pairs[1].pair_id"],
  ["pairwise: pair a missing", "pairwise", pairwise({ pairs: [without(pair(0), "a")] }), "pairs[0].a"],
  ["pairwise: pair b missing", "pairwise", pairwise({ pairs: [without(pair(0), "b")] }), "pairs[0].b"],
  ["pairwise: asset id missing", "pairwise", pairwise({ pairs: [pair(0, { a: { image_url: "https://cdn.example.com/a.png" } })] }), "pairs[0].a.id"],
  ["pairwise: image_url missing", "pairwise", pairwise({ pairs: [pair(0, { b: { id: "b" } })] }), "pairs[0].b.image_url"],
  ["pairwise: image_url http", "pairwise", pairwise({ pairs: [pair(0, { a: { id: "a", image_url: "http://x.example/a.png" } })] }), "pairs[0].a.image_url"],
  ["pairwise: unknown property on pair", "pairwise", pairwise({ pairs: [pair(0, { weight: 2 })] }), "pairs[0].weight"],
  ["pairwise: unknown property on asset", "pairwise", pairwise({ pairs: [pair(0, { a: { id: "a", image_url: "https://x.example/a.png", url: "y" } })] }), "pairs[0].a.url"],
  ["pairwise: neither audience", "pairwise", without(pairwise(), "audience_id"), "audience"],
  ["pairwise: both audiences", "pairwise", pairwise({ audience: { name: "x" } }), "audience"],
  ["pairwise: unknown goal", "pairwise", pairwise({ goal: "fun" }), "goal"],
  ["pairwise: unknown top-level property", "pairwise", pairwise({ asset_type: "Logo" }), "asset_type"],
  // saved audiences
  ["audience: name missing", "audience", { description: "x" }, "name"],
  ["audience: bad demographics value", "audience", { name: "x", demographics: { urgency: "now" } }, "demographics.urgency"],
  ["audience: unknown property", "audience", { name: "x", owner: "acct_1" }, "owner"],
];

const schemas = { rank: RankRequest, pairwise: PairwiseRequest, audience: CreateAudienceRequest };

describe("bad bodies map to 422 with the exact field", () => {
  it("covers at least 60 bodies", () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
  });

  it.each(cases)("%s", (_name, kind, body, field) => {
    const result = parseWith(schemas[kind], body);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.status).toBe(422);
    expect(result.error.body.field).toBe(field);
    const sentence = result.error.body.error;
    expect(sentence).toMatch(/^\S.*\.$/);
    expect(sentence).not.toMatch(/zod|Invalid input|expected .* received|ZodError|\bissue\b/i);
    if (field) expect(sentence).toContain(field);
  });

  it("names the accepted values of an enum", () => {
    const r = parseWith(RankRequest, demographics({ urgency: "asap" }));
    expect(!r.ok && r.error.body.error).toBe("audience.demographics.urgency must be one of: none, low, moderate, high, urgent.");
  });

  it("says a missing value is required and a wrong one has the wrong type", () => {
    const missing = parseWith(RankRequest, without(rank(), "assets"));
    expect(!missing.ok && missing.error.body.error).toBe("assets is required.");
    const wrong = parseWith(RankRequest, rank({ assets: "x" }));
    expect(!wrong.ok && wrong.error.body.error).toBe("assets must be an array.");
  });

  it("states the one-of rule in a sentence", () => {
    const r = parseWith(RankRequest, rank({ audience_id: "aud_1" }));
    expect(!r.ok && r.error.body).toEqual({ error: "Exactly one of audience and audience_id must be present.", field: "audience" });
  });
});
