import { MiB, audience, good, pairWith, rankOne } from "./helpers.ts";
import type { HostileCase } from "./types.ts";

const RANK = "/api/v1/rank";
const PAIRWISE = "/api/v1/pairwise";
const AUDIENCES = "/api/v1/audiences";
const NOT_JSON = /not valid JSON|is empty/;

const validRank = () => JSON.stringify(rankOne());

/** Text that is not JSON: 400 (DESIGN: "body is not JSON"). */
const notJson: Array<[string, string | Buffer]> = [
  ["truncated object", '{"assets":[{"url":"data:image/png;base64,iVBO'],
  ["trailing comma in an array", '{"assets":[{"url":"x"},],"audience":{"name":"x"}}'],
  ["trailing comma in an object", '{"assets":[],"audience":{"name":"x"},}'],
  ["trailing garbage after the object", '{"assets":[],"audience":{"name":"x"}}garbage'],
  ["two objects back to back", '{"assets":[]}{"assets":[]}'],
  ["NaN literal", '{"assets":NaN,"audience":{"name":"x"}}'],
  ["Infinity literal", '{"assets":[],"audience":{"name":"x"},"x":Infinity}'],
  ["-Infinity literal", '{"assets":[],"refine_close_pairs":-Infinity}'],
  ["undefined literal", '{"assets":undefined}'],
  ["hex number", '{"assets":[],"x":0x10}'],
  ["number with a leading zero", '{"assets":[],"x":01}'],
  ["number with a leading plus", '{"assets":[],"x":+1}'],
  ["block comment", '{/* hi */"assets":[],"audience":{"name":"x"}}'],
  ["line comment", '{"assets":[], // hi\n"audience":{"name":"x"}}'],
  ["single-quoted strings", "{'assets':[],'audience':{'name':'x'}}"],
  ["unquoted keys", '{assets:[],audience:{name:"x"}}'],
  ["invalid escape \\x41", '{"audience":{"name":"\\x41"}}'],
  ["unterminated string", '{"assets":[{"url":"https://'],
  ["raw control character inside a string", '{"audience":{"name":"a\u0001b"}}'],
  ["raw newline inside a string", '{"audience":{"name":"a\nb"}}'],
  ["empty body", ""],
  ["whitespace only", "   \n\t "],
  ["a bare word", "rank"],
  ["deeply truncated arrays", '{"assets":[[[[[['],
  ["invalid UTF-8 bytes before the object", Buffer.from([0xff, 0xfe, 0x7b, 0x7d])],
  ["UTF-16LE bytes", Buffer.from('{"assets":[],"audience":{"name":"x"}}', "utf16le")],
];

/** JSON, but not an object: 422 ("The request body must be a JSON object."). */
const notAnObject: Array<[string, string]> = [
  ["literal null", "null"],
  ["literal true", "true"],
  ["an empty array", "[]"],
  ["an array of the body", "[{}]"],
  ["a number", "42"],
  ["a string", '"rank these"'],
];

export const malformedCases: HostileCase[] = [
  ...notJson.map(([name, body]): HostileCase => ({ category: "malformed JSON", name: `rank: ${name}`, path: RANK, body, expect: { status: 400, error: NOT_JSON } })),
  ...notJson
    .filter((_, i) => i % 2 === 0)
    .map(([name, body]): HostileCase => ({ category: "malformed JSON", name: `pairwise: ${name}`, path: PAIRWISE, body, expect: { status: 400, error: NOT_JSON } })),
  ...notJson
    .filter((_, i) => i % 5 === 0)
    .map(([name, body]): HostileCase => ({ category: "malformed JSON", name: `audiences: ${name}`, path: AUDIENCES, body, expect: { status: 400, error: NOT_JSON } })),
  ...notAnObject.map(([name, body]): HostileCase => ({ category: "malformed JSON", name: `rank: ${name}`, path: RANK, body, expect: { status: 422, error: /must be a JSON object/ } })),
  ...notAnObject
    .slice(0, 3)
    .map(([name, body]): HostileCase => ({ category: "malformed JSON", name: `pairwise: ${name}`, path: PAIRWISE, body, expect: { status: 422, error: /must be a JSON object/ } })),
  {
    category: "malformed JSON",
    name: "rank: invalid UTF-8 byte inside an asset id",
    path: RANK,
    // RFC 8259 §8.1: JSON exchanged between systems MUST be UTF-8; these bytes are not JSON text.
    // Decoding them into U+FFFD would hand back an asset_id the caller never sent.
    body: () => Buffer.concat([Buffer.from(`{"assets":[{"url":"${good(1)}","id":"a`), Buffer.from([0xff]), Buffer.from(`b"}],"audience":{"name":"x"}}`)]),
    expect: { status: 400, error: NOT_JSON },
  },
  // RFC 8259 lets a parser ignore a byte-order mark; the gateway does.
  { category: "malformed JSON", name: "rank: byte-order mark before the JSON is ignored", path: RANK, body: () => `\ufeff${validRank()}`, expect: { ok: true } },
  {
    category: "malformed JSON",
    name: "rank: duplicate keys, the last one wins (valid last)",
    path: RANK,
    body: () => `{"assets":"nonsense","assets":[{"url":"${good(1)}","id":"good"}],"audience":{"name":"x"}}`,
    expect: { ok: true },
  },
  {
    category: "malformed JSON",
    name: "rank: duplicate keys, the last one wins (invalid last)",
    path: RANK,
    body: () => `{"assets":[{"url":"${good(1)}","id":"good"}],"assets":"nonsense","audience":{"name":"x"}}`,
    expect: { status: 422, field: "assets" },
  },
  {
    category: "malformed JSON",
    name: "pairwise: duplicate pair_id keys inside a pair, the last one is echoed",
    path: PAIRWISE,
    body: () => `{"pairs":[{"pair_id":"first","pair_id":"second","a":{"id":"a","image_url":"${good(2)}"},"b":{"id":"b","image_url":"${good(3)}"}}],"audience":{"name":"x"}}`,
    expect: { ok: true, check: (b) => expectEqual(b.pairs[0].pairId, "second", "pairId") },
  },
  { category: "malformed JSON", name: "rank: wrong types everywhere", path: RANK, body: { assets: "all of them", audience: 7, goal: ["purchase-intent"] }, expect: { status: 422, field: "assets" } },
  { category: "malformed JSON", name: "rank: numbers as strings (refine_close_pairs: \"false\")", path: RANK, body: rankOne({}, { refine_close_pairs: "false" }), expect: { status: 422, field: "refine_close_pairs" } },
  { category: "malformed JSON", name: "rank: unknown top-level property", path: RANK, body: rankOne({}, { admin: true }), expect: { status: 422, field: "admin" } },
  { category: "malformed JSON", name: "rank: audience and audience_id together", path: RANK, body: rankOne({}, { audience_id: "aud_x" }), expect: { status: 422, field: "audience" } },
  { category: "malformed JSON", name: "rank: neither audience nor audience_id", path: RANK, body: { assets: [{ url: good(1) }] }, expect: { status: 422, field: "audience" } },
  { category: "malformed JSON", name: "rank: audience: null", path: RANK, body: { assets: [{ url: good(1) }], audience: null }, expect: { status: 422, field: "audience" } },
  { category: "malformed JSON", name: "rank: no assets", path: RANK, body: { assets: [], audience }, expect: { status: 422, field: "assets" } },
  { category: "malformed JSON", name: "rank: 21 assets", path: RANK, body: () => ({ assets: Array.from({ length: 21 }, () => ({ url: good(1) })), audience }), expect: { status: 422, field: "assets" } },
  { category: "malformed JSON", name: "rank: 100000 assets", path: RANK, body: () => ({ assets: Array.from({ length: 100_000 }, () => ({ url: "https://example.com/a.png" })), audience }), expect: { status: 422, field: "assets" } },
  { category: "malformed JSON", name: "pairwise: 11 pairs", path: PAIRWISE, body: () => ({ ...pairWith(), pairs: Array.from({ length: 11 }, (_, i) => ({ ...pairWith().pairs[0]!, pair_id: `p${i}` })) }), expect: { status: 422, field: "pairs" } },
  { category: "malformed JSON", name: "pairwise: a pair without b", path: PAIRWISE, body: { pairs: [{ pair_id: "p", a: { id: "a", image_url: good(2) } }], audience }, expect: { status: 422, field: "pairs[0].b" } },

  // Deep nesting: neither the parser nor the validator may overflow its stack or hang.
  ...[1_000, 10_000, 100_000].flatMap((depth): HostileCase[] => [
    { category: "deep nesting", name: `rank: arrays ${depth} deep as assets`, path: RANK, body: () => `{"assets":${"[".repeat(depth)}${"]".repeat(depth)},"audience":{"name":"x"}}`, expect: { status: [400, 422] } },
    { category: "deep nesting", name: `rank: objects ${depth} deep in copy_context`, path: RANK, body: () => `{"assets":[{"url":"${good(1)}","copy_context":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}],"audience":{"name":"x"}}`, expect: { status: [400, 422] } },
  ]),
  { category: "deep nesting", name: "rank: objects 10000 deep in demographics", path: RANK, body: () => `{"assets":[{"url":"${good(1)}"}],"audience":{"name":"x","demographics":${'{"a":'.repeat(10_000)}"x"${"}".repeat(10_000)}}}`, expect: { status: [400, 422] } },
  { category: "deep nesting", name: "rank: objects 10000 deep under an unknown key", path: RANK, body: () => `{"assets":[{"url":"${good(1)}"}],"audience":{"name":"x"},"extra":${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}}`, expect: { status: [400, 422] } },
  { category: "deep nesting", name: "rank: arrays 10000 deep as an asset url", path: RANK, body: () => `{"assets":[{"url":${"[".repeat(10_000)}${"]".repeat(10_000)}}],"audience":{"name":"x"}}`, expect: { status: [400, 422] } },
  { category: "deep nesting", name: "pairwise: objects 10000 deep as a pair side", path: PAIRWISE, body: () => `{"pairs":[{"pair_id":"p","a":${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)},"b":{"id":"b","image_url":"x"}}],"audience":{"name":"x"}}`, expect: { status: [400, 422] } },
  { category: "deep nesting", name: "pairwise: arrays 100000 deep as pairs", path: PAIRWISE, body: () => `{"pairs":${"[".repeat(100_000)}${"]".repeat(100_000)},"audience":{"name":"x"}}`, expect: { status: [400, 422] } },
  { category: "deep nesting", name: "audiences: objects 10000 deep in demographics", path: AUDIENCES, body: () => `{"name":"x","demographics":${'{"a":'.repeat(10_000)}"x"${"}".repeat(10_000)}}`, expect: { status: [400, 422] } },

  // Bodies past the 25 MiB limit (DESIGN: 413), refused while reading, before parsing.
  { category: "huge bodies", name: "rank: 25 MiB + 1 byte", path: RANK, body: () => `{"pad":"${"A".repeat(25 * MiB - 9)}"}`, expect: { status: 413, error: /25 MiB/ } },
  { category: "huge bodies", name: "rank: 30 MiB data URI in one asset", path: RANK, body: () => ({ assets: [{ url: `data:image/png;base64,${"A".repeat(30 * MiB)}` }], audience }), expect: { status: 413, error: /25 MiB/ } },
  { category: "huge bodies", name: "rank: 25 MiB + 64 KiB sent chunked, without Content-Length", path: RANK, headers: { "transfer-encoding": "chunked" }, body: () => `{"pad":"${" ".repeat(25 * MiB + 64 * 1024)}"}`, expect: { status: 413, error: /25 MiB/ } },
  { category: "huge bodies", name: "rank: Content-Length declares 100 MiB, 2 bytes sent", path: RANK, headers: { "content-length": String(100 * MiB) }, body: "{}", expect: { status: 413, error: /25 MiB/ } },
  { category: "huge bodies", name: "pairwise: 40 MiB of whitespace", path: PAIRWISE, body: () => " ".repeat(40 * MiB), expect: { status: 413, error: /25 MiB/ } },
  { category: "huge bodies", name: "audiences: 26 MiB description", path: AUDIENCES, body: () => ({ name: "x", description: "d".repeat(26 * MiB) }), expect: { status: 413, error: /25 MiB/ } },
  { category: "huge bodies", name: "rank: 30 MiB without a valid key is refused before it is read", path: RANK, auth: null, body: () => " ".repeat(30 * MiB), expect: { status: 401 } },
  {
    category: "huge bodies",
    name: "rank: a 10.5 MiB image in a data URI is a per-asset error (10 MiB image limit)",
    path: RANK,
    body: () => ({ assets: [{ url: good(1), id: "good" }, { url: `data:image/png;base64,${Buffer.alloc(10.5 * MiB, 1).toString("base64")}`, id: "huge" }], audience }),
    expect: { assetErrors: { huge: /over the 10 MiB limit/ } },
  },
  { category: "huge bodies", name: "rank: Content-Length shorter than the body", path: RANK, headers: { "content-length": "10" }, body: () => validRank(), expect: { status: 400 } },
];

function expectEqual(actual: unknown, expected: unknown, what: string): void {
  if (actual !== expected) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}
