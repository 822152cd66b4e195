import { gzipSync } from "node:zlib";
import { MiB, TRAP, goodPng, pngClaiming, deflatedZeros } from "./helpers.ts";

// Images fetched over https from a loopback fixture server, by a second gateway started with
// the test-only setting that lets image intake reach 127.0.0.1 / ::1 (IMAGE_ALLOW_LOOPBACK)
// and trust the fixture's CA. Plain loopback is fetchable there, so redirect targets are the
// addresses that stay refused even with that setting: every hop is checked again, and a
// redirect may not leave https, reach mapped loopback, "this host", private, link-local or
// metadata addresses, carry credentials, or go on for more than 3 hops.

export interface ServedResponse {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the headers and this many bytes of the body, then cut the connection. */
  cutAfter?: number;
}

export interface ServedContext {
  trapPort: number;
  /** The fixture server's origin, e.g. https://127.0.0.1:40123 */
  origin: string;
  /** This case's own path prefix on the fixture server. */
  base: string;
}

export interface ServedCase {
  category: string;
  name: string;
  /** Responses by path suffix; the first one is where the asset URL points. */
  routes: (ctx: ServedContext) => Array<[string, ServedResponse]>;
  expect: { assetError: RegExp } | { ok: true };
}

const redirectTo = (location: string, status = 302): ServedResponse => ({ status, headers: { location } });
const REDIRECT_REFUSED = /after a redirect, images are fetched from public addresses only/;

const redirectTargets: Array<[string, string, RegExp]> = [
  ["mapped loopback [::ffff:127.0.0.1]", `https://[::ffff:127.0.0.1]:${TRAP}/ad.png`, REDIRECT_REFUSED],
  ["NAT64 loopback [64:ff9b::7f00:1]", `https://[64:ff9b::7f00:1]:${TRAP}/ad.png`, REDIRECT_REFUSED],
  ["0.0.0.0", `https://0.0.0.0:${TRAP}/ad.png`, REDIRECT_REFUSED],
  ["[::]", `https://[::]:${TRAP}/ad.png`, REDIRECT_REFUSED],
  ["the metadata service", "https://169.254.169.254/latest/meta-data/iam/security-credentials/", REDIRECT_REFUSED],
  ["the metadata service as a decimal number", "https://2852039166/latest/meta-data/", REDIRECT_REFUSED],
  ["the AWS IPv6 metadata service", "https://[fd00:ec2::254]/latest/meta-data/", REDIRECT_REFUSED],
  ["10.0.0.5", "https://10.0.0.5/ad.png", REDIRECT_REFUSED],
  ["172.16.0.1", "https://172.16.0.1/ad.png", REDIRECT_REFUSED],
  ["192.168.0.1", "https://192.168.0.1/ad.png", REDIRECT_REFUSED],
  ["[fe80::1]", "https://[fe80::1]/ad.png", REDIRECT_REFUSED],
  ["[fd00::1]", "https://[fd00::1]/ad.png", REDIRECT_REFUSED],
  ["a protocol-relative metadata address", "//169.254.169.254/latest/meta-data/", REDIRECT_REFUSED],
  ["plain http on loopback", `http://127.0.0.1:${TRAP}/ad.png`, /redirected to a non-https URL/],
  ["plain http to the metadata service", "http://169.254.169.254/latest/meta-data/", /redirected to a non-https URL/],
  ["file:///etc/passwd", "file:///etc/passwd", /redirected to a non-https URL/],
  ["gopher on loopback", `gopher://127.0.0.1:${TRAP}/_`, /redirected to a non-https URL/],
  ["a data: URI", `data:image/png;base64,${goodPng(1).toString("base64")}`, /redirected to a non-https URL/],
  ["credentials on loopback", `https://user:pass@127.0.0.1:${TRAP}/ad.png`, /after a redirect, image URLs must not carry a user name or password/],
  ["a location that cannot be parsed", "https://[::1", /redirected to a location that could not be parsed/],
];

export const servedCases: ServedCase[] = [
  ...redirectTargets.map(([name, target, error]): ServedCase => ({
    category: "redirects",
    name: `a redirect to ${name}`,
    routes: (ctx) => [["", redirectTo(target.replaceAll(TRAP, String(ctx.trapPort)))]],
    expect: { assetError: error },
  })),
  ...[301, 303, 307, 308].map((status): ServedCase => ({
    category: "redirects",
    name: `a ${status} to the metadata service`,
    routes: () => [["", redirectTo("https://169.254.169.254/latest/meta-data/", status)]],
    expect: { assetError: REDIRECT_REFUSED },
  })),
  {
    category: "redirects",
    name: "a good hop, then a redirect to the metadata service",
    routes: (ctx) => [["", redirectTo(`${ctx.origin}${ctx.base}/2`)], ["/2", redirectTo("https://169.254.169.254/latest/meta-data/")]],
    expect: { assetError: REDIRECT_REFUSED },
  },
  {
    category: "redirects",
    name: "a chain of five redirects",
    routes: (ctx) => [0, 1, 2, 3, 4].map((i): [string, ServedResponse] => [i === 0 ? "" : `/${i}`, i < 4 ? redirectTo(`${ctx.origin}${ctx.base}/${i + 1}`) : { status: 200, headers: { "content-type": "image/png" }, body: goodPng(1) }]),
    expect: { assetError: /redirected more than 3 times/ },
  },
  { category: "redirects", name: "a redirect to itself", routes: (ctx) => [["", redirectTo(`${ctx.origin}${ctx.base}`)]], expect: { assetError: /redirected more than 3 times/ } },
  { category: "redirects", name: "a 302 without a Location", routes: () => [["", { status: 302 }]], expect: { assetError: /without saying where the image is/ } },
  {
    category: "redirects",
    name: "three redirects, then the image, is fine",
    routes: (ctx) => [0, 1, 2, 3].map((i): [string, ServedResponse] => [i === 0 ? "" : `/${i}`, i < 3 ? redirectTo(`${ctx.origin}${ctx.base}/${i + 1}`) : { status: 200, headers: { "content-type": "image/png" }, body: goodPng(9) }]),
    expect: { ok: true },
  },

  // What the server sends instead of an image.
  { category: "served content", name: "an empty 200", routes: () => [["", { status: 200, headers: { "content-type": "image/png" }, body: "" }]], expect: { assetError: /bytes are empty/ } },
  { category: "served content", name: "an HTML page served as image/png", routes: () => [["", { status: 200, headers: { "content-type": "image/png" }, body: "<!doctype html><html><body>login</body></html>" }]], expect: { assetError: /bytes are an HTML page/ } },
  { category: "served content", name: "an SVG with a script", routes: () => [["", { status: 200, headers: { "content-type": "image/svg+xml" }, body: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>' }]], expect: { assetError: /bytes are an SVG image/ } },
  { category: "served content", name: "JSON credentials served as image/png", routes: () => [["", { status: 200, headers: { "content-type": "image/png" }, body: '{"AccessKeyId":"AKIA…","SecretAccessKey":"…"}' }]], expect: { assetError: /bytes are text/ } },
  { category: "served content", name: "an 11 MiB body", routes: () => [["", { status: 200, headers: { "content-type": "image/png" }, body: Buffer.concat([goodPng(1), Buffer.alloc(11 * MiB)]) }]], expect: { assetError: /10 MiB/ } },
  { category: "served content", name: "an 11 MiB body without Content-Length", routes: () => [["", { status: 200, headers: { "content-type": "image/png", "transfer-encoding": "chunked" }, body: Buffer.concat([goodPng(1), Buffer.alloc(11 * MiB)]) }]], expect: { assetError: /10 MiB/ } },
  { category: "served content", name: "a PNG header claiming 50000 x 50000 pixels", routes: () => [["", { status: 200, headers: { "content-type": "image/png" }, body: pngClaiming(50_000, 50_000, deflatedZeros(1024)) }]], expect: { assetError: /megapixel limit/ } },
  { category: "served content", name: "a gzip-encoded PNG although identity was asked for", routes: () => [["", { status: 200, headers: { "content-type": "image/png", "content-encoding": "gzip" }, body: gzipSync(goodPng(1)) }]], expect: { assetError: /did not return a PNG, JPEG, WebP or GIF image/ } },
  { category: "served content", name: "a connection cut in the middle of the image", routes: () => [["", { status: 200, headers: { "content-type": "image/png", "content-length": String(goodPng(1).length) }, body: goodPng(1), cutAfter: 100 }]], expect: { assetError: /closed before the image arrived|truncated or corrupt|could not be fetched/ } },
  { category: "served content", name: "a 404", routes: () => [["", { status: 404, body: "not found" }]], expect: { assetError: /answered HTTP 404/ } },
  { category: "served content", name: "a 500 with a stack trace in its body", routes: () => [["", { status: 500, body: "Error: boom\n    at handler (/srv/app/node_modules/x/index.js:1:1)" }]], expect: { assetError: /answered HTTP 500/ } },
  { category: "served content", name: "a PNG served as text/plain (the bytes decide)", routes: () => [["", { status: 200, headers: { "content-type": "text/plain" }, body: goodPng(10) }]], expect: { ok: true } },
];
