import { good, pairWith, rankOne } from "./helpers.ts";
import type { HostileCase } from "./types.ts";

const RANK = "/api/v1/rank";
const PAIRWISE = "/api/v1/pairwise";
const AUDIENCES = "/api/v1/audiences";
const WRONG_TYPE = /must be JSON sent with `Content-Type: application\/json`|is empty/;
const UNAUTHENTICATED = /Missing or invalid API key/;

// ---- Content types: only JSON is read (DESIGN binds a wrong type to 400, not 415) ---------

const wrongTypes = [
  "text/plain",
  "text/plain; charset=utf-8",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=XyZ",
  "application/xml",
  "application/octet-stream",
  "application/json-patch+json",
  "application/vnd.api+json",
  "text/json",
  "application/jsonx",
  "image/png",
];
const multipart = [
  "--XyZ",
  'Content-Disposition: form-data; name="body"',
  "Content-Type: application/json",
  "",
  JSON.stringify({ assets: [{ url: "https://example.com/a.png" }], audience: { name: "x" } }),
  "--XyZ--",
  "",
].join("\r\n");

const contentTypeCases: HostileCase[] = [
  ...wrongTypes.map((type): HostileCase => ({ category: "content types", name: `rank sent as ${type}`, path: RANK, body: () => JSON.stringify(rankOne()), contentType: type, expect: { status: 400, error: WRONG_TYPE } })),
  { category: "content types", name: "rank with JSON but no Content-Type", path: RANK, body: () => JSON.stringify(rankOne()), contentType: null, expect: { status: 400, error: WRONG_TYPE } },
  { category: "content types", name: "rank as a real multipart form", path: RANK, body: multipart, contentType: "multipart/form-data; boundary=XyZ", expect: { status: 400, error: WRONG_TYPE } },
  { category: "content types", name: "rank as a urlencoded form", path: RANK, body: "assets=https%3A%2F%2Fexample.com%2Fa.png&audience=x", contentType: "application/x-www-form-urlencoded", expect: { status: 400, error: WRONG_TYPE } },
  { category: "content types", name: "pairwise as a urlencoded form", path: PAIRWISE, body: "pairs=1&audience=x", contentType: "application/x-www-form-urlencoded", expect: { status: 400, error: WRONG_TYPE } },
  { category: "content types", name: "pairwise as text/plain", path: PAIRWISE, body: () => JSON.stringify(pairWith()), contentType: "text/plain", expect: { status: 400, error: WRONG_TYPE } },
  { category: "content types", name: "pairwise with no Content-Type", path: PAIRWISE, body: () => JSON.stringify(pairWith()), contentType: null, expect: { status: 400, error: WRONG_TYPE } },
  { category: "content types", name: "audiences as a multipart form", path: AUDIENCES, body: multipart, contentType: "multipart/form-data; boundary=XyZ", expect: { status: 400, error: WRONG_TYPE } },
  { category: "content types", name: "audiences as application/xml", path: AUDIENCES, body: "<audience><name>x</name></audience>", contentType: "application/xml", expect: { status: 400, error: WRONG_TYPE } },
  { category: "content types", name: "rank JSON compressed with gzip (Content-Encoding is not supported)", path: RANK, body: Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 3]), headers: { "content-encoding": "gzip" }, expect: { status: 400 } },
  // Media types are case-insensitive and charset=utf-8 is what JSON is: both are just JSON.
  { category: "content types", name: "rank as APPLICATION/JSON (upper case) is JSON", path: RANK, body: () => JSON.stringify(rankOne()), contentType: "APPLICATION/JSON", expect: { ok: true } },
  { category: "content types", name: "rank as application/json; charset=utf-8 is JSON", path: RANK, body: () => JSON.stringify(rankOne()), contentType: "application/json; charset=utf-8", expect: { ok: true } },
];

// ---- Prototype pollution: every level, refused by the JSON parser ------------------------

const poisoned: Array<[string, string, () => string]> = [
  ["rank: __proto__ at the top", RANK, () => `{"__proto__":{"admin":true},"assets":[{"url":"${good(1)}"}],"audience":{"name":"x"}}`],
  ["rank: __proto__ in an asset", RANK, () => `{"assets":[{"url":"${good(1)}","__proto__":{"polluted":"yes"}}],"audience":{"name":"x"}}`],
  ["rank: __proto__ in audience", RANK, () => `{"assets":[{"url":"${good(1)}"}],"audience":{"name":"x","__proto__":{"polluted":"yes"}}}`],
  ["rank: __proto__ in demographics", RANK, () => `{"assets":[{"url":"${good(1)}"}],"audience":{"name":"x","demographics":{"__proto__":{"polluted":"yes"}}}}`],
  ["rank: __proto__ as a string in demographics", RANK, () => `{"assets":[{"url":"${good(1)}"}],"audience":{"name":"x","demographics":{"__proto__":"yes"}}}`],
  ["rank: __proto__ in copy_context", RANK, () => `{"assets":[{"url":"${good(1)}","copy_context":{"__proto__":{"polluted":"yes"}}}],"audience":{"name":"x"}}`],
  ["rank: __proto__ as a copy key with a string value", RANK, () => `{"assets":[{"url":"${good(1)}","copy_context":{"__proto__":"Buy now"}}],"audience":{"name":"x"}}`],
  ["rank: __proto__ inside the assets array element list", RANK, () => `{"assets":[{"url":"${good(1)}"},{"__proto__":[]}],"audience":{"name":"x"}}`],
  ["rank: constructor.prototype at the top", RANK, () => `{"constructor":{"prototype":{"isAdmin":true}},"assets":[{"url":"${good(1)}"}],"audience":{"name":"x"}}`],
  ["rank: constructor.prototype in an asset", RANK, () => `{"assets":[{"url":"${good(1)}","constructor":{"prototype":{"polluted":"yes"}}}],"audience":{"name":"x"}}`],
  ["rank: constructor.prototype in copy_context", RANK, () => `{"assets":[{"url":"${good(1)}","copy_context":{"constructor":{"prototype":{"polluted":"yes"}}}}],"audience":{"name":"x"}}`],
  ["rank: constructor.prototype in demographics", RANK, () => `{"assets":[{"url":"${good(1)}"}],"audience":{"name":"x","demographics":{"constructor":{"prototype":{"polluted":"yes"}}}}}`],
  ["rank: __proto__ escaped as \\u005f_proto__", RANK, () => `{"\\u005f_proto__":{"admin":true},"assets":[{"url":"${good(1)}"}],"audience":{"name":"x"}}`],
  ["rank: __proto__ escaped as __pro\\u0074o__", RANK, () => `{"assets":[{"url":"${good(1)}"}],"audience":{"name":"x","__pro\\u0074o__":{"polluted":"yes"}}}`],
  ["rank: constructor with \\u0070rototype escaped", RANK, () => `{"constructor":{"\\u0070rototype":{"isAdmin":true}},"assets":[{"url":"${good(1)}"}],"audience":{"name":"x"}}`],
  ["rank: __proto__ twice, then a real key", RANK, () => `{"__proto__":{},"__proto__":{"admin":1},"assets":[{"url":"${good(1)}"}],"audience":{"name":"x"}}`],
  ["pairwise: __proto__ at the top", PAIRWISE, () => `{"__proto__":{"admin":true},"pairs":[],"audience":{"name":"x"}}`],
  ["pairwise: __proto__ in a pair", PAIRWISE, () => `{"pairs":[{"pair_id":"p","__proto__":{"x":1},"a":{"id":"a","image_url":"${good(1)}"},"b":{"id":"b","image_url":"${good(2)}"}}],"audience":{"name":"x"}}`],
  ["pairwise: __proto__ in a pair side", PAIRWISE, () => `{"pairs":[{"pair_id":"p","a":{"id":"a","image_url":"${good(1)}","__proto__":{"x":1}},"b":{"id":"b","image_url":"${good(2)}"}}],"audience":{"name":"x"}}`],
  ["pairwise: constructor.prototype in audience", PAIRWISE, () => `{"pairs":[],"audience":{"name":"x","constructor":{"prototype":{"polluted":"yes"}}}}`],
  ["audiences: __proto__ at the top", AUDIENCES, () => '{"__proto__":{"polluted":"yes"},"name":"x"}'],
  ["audiences: __proto__ in demographics", AUDIENCES, () => '{"name":"x","demographics":{"__proto__":{"polluted":"yes"}}}'],
  ["audiences: constructor.prototype in demographics", AUDIENCES, () => '{"name":"x","demographics":{"constructor":{"prototype":{"polluted":"yes"}}}}'],
];
const pollutionCases: HostileCase[] = [
  ...poisoned.map(([name, path, body]): HostileCase => ({ category: "prototype pollution", name, path, body, expect: { status: 400, error: /not valid JSON/ } })),
  // Names that are only dangerous as prototype paths are ordinary data everywhere else.
  { category: "prototype pollution", name: "rank: prototype as a top-level key is an unknown property", path: RANK, body: rankOne({}, { prototype: { admin: true } }), expect: { status: 422, field: "prototype" } },
  { category: "prototype pollution", name: "rank: constructor as a plain copy key is just copy", path: RANK, body: rankOne({ copy_context: { constructor: "Acme Inc.", prototype: "v2" } }), expect: { ok: true } },
  { category: "prototype pollution", name: "rank: toString, hasOwnProperty and valueOf as demographics keys", path: RANK, body: rankOne({}, { audience: { name: "x", demographics: { toString: "a", hasOwnProperty: "b", valueOf: "c", constructor: "d" } } }), expect: { ok: true } },
  { category: "prototype pollution", name: "audiences: toString and constructor as demographics keys come back as data", path: AUDIENCES, body: { name: "x", demographics: { toString: "a", constructor: "b" } }, expect: { ok: true, check: (b) => { if (JSON.stringify(b.demographics) !== '{"toString":"a","constructor":"b"}') throw new Error(`demographics came back as ${JSON.stringify(b.demographics)}`); } } },
];

// ---- Authentication tricks: 401 with WWW-Authenticate, nothing charged -------------------

const badAuth: Array<[string, HostileCase["auth"]]> = [
  ["no Authorization header", null],
  ["an empty Authorization header", ""],
  ["Bearer and nothing else", "Bearer"],
  ["Bearer and blanks", "Bearer    "],
  ["Basic scheme with the valid key as user name", (key) => `Basic ${Buffer.from(`${key}:`).toString("base64")}`],
  ["Token scheme with the valid key", (key) => `Token ${key}`],
  ["the valid key without a scheme", (key) => key],
  ["the valid key missing its last character", (key) => `Bearer ${key.slice(0, -1)}`],
  ["the valid key with one character more", (key) => `Bearer ${key}A`],
  ["the valid key with its last character changed", (key) => `Bearer ${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`],
  ["the valid key with its prefix in upper case", (key) => `Bearer ${key.replace("agk_live_", "AGK_LIVE_")}`],
  ["the valid key followed by a tab and more text", (key) => `Bearer ${key}\tx`],
  ["the valid key twice", (key) => `Bearer ${key} ${key}`],
  ["a well-formed key that does not exist", `Bearer agk_live_${"A".repeat(55)}`],
  ["another product's key", "Bearer sk-proj-abcdefghijklmnopqrstuvwxyz"],
  ["a JWT with alg none", "Bearer eyJhbGciOiJub25lIn0.eyJhZG1pbiI6dHJ1ZX0."],
  ["SQL in the bearer token", "Bearer ' OR '1'='1"],
  ["two schemes at once", (key) => `Bearer nope, Bearer ${key}`],
  ["a wrong key first, the valid key in a second Authorization header", (key) => ["Bearer agk_live_wrongwrongwrongwrongwrongwrongwrongwrongwrongwrongwrongwro", `Bearer ${key}`]],
  ["an 8 KiB bearer token", `Bearer agk_live_${"x".repeat(8 * 1024)}`],
];
const authCases: HostileCase[] = [
  ...badAuth.map(([name, auth]): HostileCase => ({ category: "auth tricks", name: `rank: ${name}`, path: RANK, body: () => rankOne(), auth, expect: { status: 401, error: UNAUTHENTICATED } })),
  // Node itself refuses a header block past 16 KiB, before the gateway sees the request.
  { category: "auth tricks", name: "rank: a 20 KiB bearer token", path: RANK, body: () => rankOne(), auth: `Bearer agk_live_${"x".repeat(20 * 1024)}`, expect: { status: 431 } },
  { category: "auth tricks", name: "rank: the key in the query string instead of the header", path: `${RANK}?api_key=agk_live_notarealkeynotarealkeynotarealkeynotarealkeynotarealkey`, body: () => rankOne(), auth: null, expect: { status: 401, error: UNAUTHENTICATED } },
  { category: "auth tricks", name: "rank: the key in a cookie", path: RANK, body: () => rankOne(), auth: null, headers: { cookie: "api_key=agk_live_x; session=1" }, expect: { status: 401, error: UNAUTHENTICATED } },
  { category: "auth tricks", name: "pairwise: no Authorization header", path: PAIRWISE, body: () => pairWith(), auth: null, expect: { status: 401, error: UNAUTHENTICATED } },
  { category: "auth tricks", name: "pairwise: the valid key missing its last character", path: PAIRWISE, body: () => pairWith(), auth: (key) => `Bearer ${key.slice(0, -1)}`, expect: { status: 401, error: UNAUTHENTICATED } },
  { category: "auth tricks", name: "audiences: list without a key", method: "GET", path: AUDIENCES, auth: null, expect: { status: 401, error: UNAUTHENTICATED } },
  { category: "auth tricks", name: "audiences: create with a Basic header", path: AUDIENCES, body: { name: "x" }, auth: "Basic dXNlcjpwYXNz", expect: { status: 401, error: UNAUTHENTICATED } },
  // Header values lose their surrounding blanks in HTTP (RFC 9110 5.5), and the scheme is
  // case-insensitive (RFC 9110 11.1): these are the valid key, and the request is served.
  { category: "auth tricks", name: "rank: the valid key with trailing spaces is served", path: RANK, body: () => rankOne(), auth: (key) => `Bearer ${key}   `, expect: { ok: true } },
  { category: "auth tricks", name: "rank: the scheme in lower case is served", path: RANK, body: () => rankOne(), auth: (key) => `bearer ${key}`, expect: { ok: true } },
];

// ---- Another account's saved audience: 404, exactly like one that does not exist ----------

const crossAccountCases: HostileCase[] = [
  { category: "cross-account", name: "rank with another account's saved audience", path: RANK, body: (ctx) => ({ assets: [{ url: good(1) }], audience_id: ctx.otherAudienceId }), expect: { status: 404, field: "audience_id", error: /^No saved audience with id "aud_[0-9a-f]+" exists for this account\.$/ } },
  { category: "cross-account", name: "pairwise with another account's saved audience", path: PAIRWISE, body: (ctx) => ({ pairs: pairWith().pairs, audience_id: ctx.otherAudienceId }), expect: { status: 404, field: "audience_id", error: /^No saved audience with id "aud_[0-9a-f]+" exists for this account\.$/ } },
  { category: "cross-account", name: "rank with a saved audience that does not exist (same answer)", path: RANK, body: { assets: [{ url: good(1) }], audience_id: "aud_00000000000000000000" }, expect: { status: 404, field: "audience_id", error: /^No saved audience with id "aud_0+" exists for this account\.$/ } },
];

// ---- Methods and paths that do not exist: a JSON 404 or 405, never a stack ----------------

const routes: Array<[NonNullable<HostileCase["method"]>, string]> = [
  ["GET", RANK],
  ["PUT", RANK],
  ["DELETE", PAIRWISE],
  ["PATCH", AUDIENCES],
  ["OPTIONS", RANK],
  ["TRACE", RANK],
  ["GET", "/api/v1/../../../../etc/passwd"],
  ["GET", "/api/v1/%2e%2e/%2e%2e/etc/passwd"],
  ["GET", "/api/v1/audiences/..%2f..%2f..%2fetc%2fpasswd"],
  ["GET", "/api/v2/rank"],
  ["GET", "/api/v1/rank/%00"],
  ["POST", "/api/v1/rank/../pairwise/../../../admin"],
  ["GET", "/node_modules/fastify/package.json"],
  ["GET", "/services/gateway/src/main.ts"],
];
const routeCases: HostileCase[] = routes.map(([method, path]): HostileCase => ({ category: "methods and paths", name: `${method} ${path}`, method, path, expect: { status: [404, 405] } }));

// ---- HTTP that is not well-formed: refused by Node's parser or by fastify ------------------

const CRLF = "\r\n";
const rawCases: HostileCase[] = [
  { category: "raw HTTP", name: "a request line that is not HTTP", path: RANK, raw: () => `GARBAGE${CRLF}${CRLF}`, expect: { status: 400 } },
  {
    category: "raw HTTP",
    name: "Content-Length and Transfer-Encoding together (request smuggling)",
    path: RANK,
    raw: (key) => ["POST /api/v1/rank HTTP/1.1", "Host: gateway", `Authorization: Bearer ${key}`, "Content-Type: application/json", "Content-Length: 4", "Transfer-Encoding: chunked", "", "0", "", ""].join(CRLF),
    expect: { status: 400 },
  },
  {
    category: "raw HTTP",
    name: "two Content-Length headers that disagree",
    path: RANK,
    raw: (key) => ["POST /api/v1/rank HTTP/1.1", "Host: gateway", `Authorization: Bearer ${key}`, "Content-Type: application/json", "Content-Length: 2", "Content-Length: 40", "", "{}"].join(CRLF),
    expect: { status: 400 },
  },
  {
    category: "raw HTTP",
    name: "HTTP/1.1 without a Host header",
    path: RANK,
    raw: (key) => ["POST /api/v1/rank HTTP/1.1", `Authorization: Bearer ${key}`, "Content-Type: application/json", "Content-Length: 2", "Connection: close", "", "{}"].join(CRLF),
    expect: { status: 400 },
  },
  {
    category: "raw HTTP",
    name: "a folded (obs-fold) Authorization header",
    path: RANK,
    raw: (key) => ["POST /api/v1/rank HTTP/1.1", "Host: gateway", "Authorization: Bearer", ` ${key}`, "Content-Type: application/json", "Content-Length: 2", "Connection: close", "", "{}"].join(CRLF),
    expect: { status: [400, 401] },
  },
];

export const envelopeCases: HostileCase[] = [...contentTypeCases, ...pollutionCases, ...authCases, ...crossAccountCases, ...routeCases, ...rawCases];
