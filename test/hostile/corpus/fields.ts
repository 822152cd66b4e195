import { good, pairWith, rankOne } from "./helpers.ts";
import type { HostileCase, Json } from "./types.ts";

const RANK = "/api/v1/rank";
const PAIRWISE = "/api/v1/pairwise";
const AUDIENCES = "/api/v1/audiences";

/** One million characters (two MB of UTF-8): far past every field's bound, well under the body limit. */
const HUGE = "ж".repeat(1_000_000);

type Pair = ReturnType<typeof pairWith>["pairs"][number];
const patchPair = (patch: (p: Pair) => Pair) => {
  const body = pairWith();
  return { ...body, pairs: [patch(body.pairs[0]!)] };
};

// Every string field of the three operations, one at a time: 422 naming the field.
const rankFields: Array<[string, () => object, string | undefined]> = [
  ["audience.name", () => rankOne({}, { audience: { name: HUGE } }), "audience.name"],
  ["audience.description", () => rankOne({}, { audience: { name: "x", description: HUGE } }), "audience.description"],
  ["audience.demographics.ageRange", () => rankOne({}, { audience: { name: "x", demographics: { ageRange: HUGE } } }), "audience.demographics.ageRange"],
  ["audience.demographics extra value", () => rankOne({}, { audience: { name: "x", demographics: { hobby: HUGE } } }), "audience.demographics.hobby"],
  ["audience.demographics extra key", () => rankOne({}, { audience: { name: "x", demographics: { [HUGE]: "y" } } }), "audience.demographics"],
  ["audience_id", () => ({ assets: [{ url: good(1) }], audience_id: HUGE }), "audience_id"],
  ["goal", () => rankOne({}, { goal: HUGE }), "goal"],
  ["asset_type", () => rankOne({}, { asset_type: HUGE }), "asset_type"],
  ["platform", () => rankOne({}, { platform: HUGE }), "platform"],
  ["campaign_type", () => rankOne({}, { campaign_type: HUGE }), "campaign_type"],
  ["assets[0].id", () => rankOne({ id: HUGE }), "assets[0].id"],
  ["assets[0].asset_type", () => rankOne({ asset_type: HUGE }), "assets[0].asset_type"],
  ["assets[0].url (an https address)", () => rankOne({ url: `https://example.com/${HUGE}` }), "assets[0].url"],
  ["assets[0].url (not a URL at all)", () => rankOne({ url: HUGE }), "assets[0].url"],
  ["assets[0].copy_context.headline", () => rankOne({ copy_context: { headline: HUGE } }), "assets[0].copy_context.headline"],
  ["assets[0].copy_context.adBody", () => rankOne({ copy_context: { adBody: HUGE } }), "assets[0].copy_context.adBody"],
  ["assets[0].copy_context.pageName", () => rankOne({ copy_context: { pageName: HUGE } }), "assets[0].copy_context.pageName"],
  ["assets[0].copy_context extra value", () => rankOne({ copy_context: { legalText: HUGE } }), "assets[0].copy_context.legalText"],
  // The values are capped at 5,000 characters; a key is copy text too (it is the label the
  // prompt shows), so it must not carry a megabyte past that cap into every model call.
  ["assets[0].copy_context extra key", () => rankOne({ copy_context: { [HUGE]: "x" } }), undefined],
  ["assets[0].copy_context extra key (ASCII, fits a job message)", () => rankOne({ copy_context: { ["K".repeat(1_000_000)]: "x" } }), undefined],
];
const pairFields: Array<[string, () => object, string]> = [
  ["pairs[0].pair_id", () => patchPair((p) => ({ ...p, pair_id: HUGE })), "pairs[0].pair_id"],
  ["pairs[0].a.id", () => patchPair((p) => ({ ...p, a: { ...p.a, id: HUGE } })), "pairs[0].a.id"],
  ["pairs[0].b.id", () => patchPair((p) => ({ ...p, b: { ...p.b, id: HUGE } })), "pairs[0].b.id"],
  ["pairs[0].a.image_url", () => patchPair((p) => ({ ...p, a: { ...p.a, image_url: `https://example.com/${HUGE}` } })), "pairs[0].a.image_url"],
  ["audience.name", () => pairWith({}, { audience: { name: HUGE } }), "audience.name"],
  ["audience.description", () => pairWith({}, { audience: { name: "x", description: HUGE } }), "audience.description"],
  ["audience_id", () => ({ pairs: pairWith().pairs, audience_id: HUGE }), "audience_id"],
  ["goal", () => pairWith({}, { goal: HUGE }), "goal"],
  ["platform", () => pairWith({}, { platform: HUGE }), "platform"],
  ["campaign_type", () => pairWith({}, { campaign_type: HUGE }), "campaign_type"],
];
const audienceFields: Array<[string, () => object, string]> = [
  ["name", () => ({ name: HUGE }), "name"],
  ["description", () => ({ name: "x", description: HUGE }), "description"],
  ["demographics extra value", () => ({ name: "x", demographics: { hobby: HUGE } }), "demographics.hobby"],
  ["demographics extra key", () => ({ name: "x", demographics: { [HUGE]: "y" } }), "demographics"],
];
// An unknown property is named in the 422; a megabyte-long name must not come back (or be
// logged) in full: the answer would be twice the size of the attack.
const hugeUnknownKeys: Array<[string, string, () => object]> = [
  ["rank: unknown top-level property with a 1,000,000-character name", RANK, () => rankOne({}, { [HUGE]: 1 })],
  ["rank: unknown asset property with a 1,000,000-character name", RANK, () => rankOne({ [HUGE]: 1 })],
  ["pairwise: unknown audience property with a 1,000,000-character name", PAIRWISE, () => pairWith({}, { audience: { name: "x", [HUGE]: 1 } })],
];

/** Ids that must come back exactly as sent: never normalized, never breaking the response. */
const echoedIds: Array<[string, string]> = [
  ["right-to-left override", "ad\u202Egnp.exe"],
  ["zero-width joiner and space", "hero\u200D\u200Bimage"],
  ["byte-order mark inside", "ad\uFEFF1"],
  ["combining marks", "e\u0301\u0301\u0301\u0301\u0301"],
  ["emoji with skin tone and ZWJ", "👩🏽‍💻-ad"],
  ["homoglyph of an id (Cyrillic a)", "\u0430sset-1"],
  ["line separator U+2028", "a\u2028b"],
  ["the non-character U+FFFF", "a\uFFFFb"],
  ["HTML", "<img src=x onerror=alert(1)>"],
  ["SQL", "x'); DROP TABLE api_keys;--"],
  ["a NATS subject wildcard", "results.>.*"],
  ["exactly 128 characters", "i".repeat(128)],
];
/** Ids the contract refuses: control characters, unpaired surrogates, empty, too long. */
const refusedIds: Array<[string, string]> = [
  ["a NUL character", "a\u0000b"],
  ["a newline and a forged log line", 'a\n{"level":60,"msg":"forged"}'],
  ["terminal escape codes", "\u001b[2J\u001b[31mred"],
  ["DEL", "a\u007fb"],
  ["a C1 control (NEL)", "a\u0085b"],
  ["129 characters", "i".repeat(129)],
  ["the empty string", ""],
];

const echo = (pick: (b: Json) => unknown, expected: string) => (b: Json) => {
  const got = pick(b);
  if (got !== expected) throw new Error(`id not echoed exactly: sent ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`);
};

export const fieldCases: HostileCase[] = [
  ...rankFields.map(([name, body, field]): HostileCase => ({ category: "huge strings", name: `rank: ${name} of 1,000,000 characters`, path: RANK, body, expect: { status: 422, ...(field ? { field } : {}) } })),
  ...pairFields.map(([name, body, field]): HostileCase => ({ category: "huge strings", name: `pairwise: ${name} of 1,000,000 characters`, path: PAIRWISE, body, expect: { status: 422, field } })),
  ...audienceFields.map(([name, body, field]): HostileCase => ({ category: "huge strings", name: `audiences: ${name} of 1,000,000 characters`, path: AUDIENCES, body, expect: { status: 422, field } })),
  ...hugeUnknownKeys.map(([name, path, body]): HostileCase => ({ category: "huge strings", name, path, body, expect: { status: 422 } })),

  ...echoedIds.map(([name, id]): HostileCase => ({ category: "unicode ids", name: `rank: asset id with ${name} is echoed exactly`, path: RANK, body: rankOne({ id }), expect: { ok: true, check: echo((b) => b.ranked[0]?.asset_id, id) } })),
  ...echoedIds.slice(0, 4).map(([name, id]): HostileCase => ({ category: "unicode ids", name: `pairwise: pair_id with ${name} is echoed exactly`, path: PAIRWISE, body: () => patchPair((p) => ({ ...p, pair_id: id })), expect: { ok: true, check: echo((b) => b.pairs[0]?.pairId, id) } })),
  ...refusedIds.map(([name, id]): HostileCase => ({ category: "unicode ids", name: `rank: asset id with ${name}`, path: RANK, body: rankOne({ id }), expect: { status: 422, field: "assets[0].id" } })),
  ...refusedIds.slice(0, 3).map(([name, id]): HostileCase => ({ category: "unicode ids", name: `pairwise: a.id with ${name}`, path: PAIRWISE, body: () => patchPair((p) => ({ ...p, a: { ...p.a, id } })), expect: { status: 422, field: "pairs[0].a.id" } })),
  ...["\\ud800", "\\udfff", "\\udc00\\ud800"].map((escape): HostileCase => ({
    category: "unicode ids",
    name: `rank: asset id with the unpaired surrogate escape ${escape}`,
    path: RANK,
    body: () => `{"assets":[{"url":"${good(1)}","id":"a${escape}b"}],"audience":{"name":"x"}}`,
    expect: { status: 422, field: "assets[0].id" },
  })),
  { category: "unicode ids", name: "pairwise: b.id with an unpaired surrogate escape", path: PAIRWISE, body: () => `{"pairs":[{"pair_id":"p","a":{"id":"a","image_url":"${good(2)}"},"b":{"id":"b\\ud800","image_url":"${good(3)}"}}],"audience":{"name":"x"}}`, expect: { status: 422, field: "pairs[0].b.id" } },
  { category: "unicode ids", name: "rank: audience_id with a NUL character", path: RANK, body: { assets: [{ url: good(1) }], audience_id: "aud_\u0000" }, expect: { status: 422, field: "audience_id" } },
  { category: "unicode ids", name: "rank: audience_id that is a homoglyph of a real one", path: RANK, body: (ctx) => ({ assets: [{ url: good(1) }], audience_id: ctx.otherAudienceId.replace("a", "\u0430") }), expect: { status: 404, field: "audience_id" } },
  { category: "unicode ids", name: "rank: audience_id with path traversal", path: RANK, body: { assets: [{ url: good(1) }], audience_id: "../../accounts/acct_1" }, expect: { status: 404, field: "audience_id" } },
  { category: "unicode ids", name: "rank: audience_id with SQL", path: RANK, body: { assets: [{ url: good(1) }], audience_id: "' OR '1'='1" }, expect: { status: 404, field: "audience_id" } },
  { category: "unicode ids", name: "pairwise: audience_id with LIKE wildcards", path: PAIRWISE, body: { pairs: pairWith().pairs, audience_id: "aud_%" }, expect: { status: 404, field: "audience_id" } },
  { category: "unicode ids", name: "pairwise: audience_id in upper case of a real one", path: PAIRWISE, body: (ctx) => ({ pairs: pairWith().pairs, audience_id: ctx.otherAudienceId.toUpperCase() }), expect: { status: 404, field: "audience_id" } },

  // Saved audiences are stored in Postgres, whose text cannot hold U+0000: the contract must
  // refuse it (422), never let the database fail (500).
  ...(
    [
      ["name", { name: "a\u0000b" }, "name"],
      ["description", { name: "x", description: "a\u0000b" }, "description"],
      ["demographics value", { name: "x", demographics: { hobby: "a\u0000b" } }, "demographics.hobby"],
      ["demographics key", { name: "x", demographics: { "ho\u0000bby": "b" } }, undefined],
    ] as const
  ).map(([name, body, field]): HostileCase => ({ category: "saved audiences", name: `audiences: NUL character in ${name}`, path: AUDIENCES, body, expect: { status: 422, ...(field ? { field } : {}) } })),
  {
    category: "saved audiences",
    name: "audiences: unpaired surrogate in name",
    path: AUDIENCES,
    body: '{"name":"a\\ud800b"}',
    // Either refused like an id, or stored; the spec says nothing. (Stored, it comes back as U+FFFD.)
    expect: { anyOf: [{ status: 422, field: "name" }, { ok: true }] },
  },
  { category: "saved audiences", name: "audiences: choosing the id", path: AUDIENCES, body: { id: "aud_mine", name: "x" }, expect: { status: 422, field: "id" } },
  { category: "saved audiences", name: "audiences: choosing the owner", path: AUDIENCES, body: { name: "x", account_id: "acct_someone" }, expect: { status: 422, field: "account_id" } },
  { category: "saved audiences", name: "audiences: 31 extra demographics keys", path: AUDIENCES, body: { name: "x", demographics: Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`k${i}`, "v"])) }, expect: { status: 422, field: "demographics" } },
  { category: "saved audiences", name: "audiences: a demographics value that is an object", path: AUDIENCES, body: { name: "x", demographics: { hobby: { nested: "y" } } }, expect: { status: 422, field: "demographics.hobby" } },
  { category: "saved audiences", name: "audiences: an unknown ageRange", path: AUDIENCES, body: { name: "x", demographics: { ageRange: "0-200" } }, expect: { status: 422, field: "demographics.ageRange" } },
  {
    category: "saved audiences",
    name: "audiences: the list shows only the caller's own audiences",
    method: "GET",
    path: AUDIENCES,
    expect: { ok: true, check: (b) => { if (b.audiences.length !== 0) throw new Error(`a fresh account sees audiences: ${JSON.stringify(b.audiences)}`); } },
  },
  { category: "saved audiences", name: "audiences: HTML and SQL in name are stored as text", path: AUDIENCES, body: { name: "<script>alert(1)</script>'; DROP TABLE audiences;--" }, expect: { ok: true, check: echo((b) => b.name, "<script>alert(1)</script>'; DROP TABLE audiences;--") } },
];
