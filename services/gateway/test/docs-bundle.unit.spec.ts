import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Fastify, { type FastifyInstance } from "fastify";
import docsRoutes from "../src/routes/docs/index.ts";
import { chooseEncoding } from "../src/routes/docs/accept-encoding.ts";

// Scalar's 4.9 MB bundle: compressed by Accept-Encoding, under a content-hashed URL the page
// loads and browsers keep for a year, revalidated with a strong ETag at its old URL.

let app: FastifyInstance;
let hashedPath: string;
let identity: Buffer;
beforeAll(async () => {
  app = Fastify();
  await app.register(docsRoutes);
  await app.ready();
  const page = await app.inject({ method: "GET", url: "/docs" });
  hashedPath = /<script src="(\/docs\/scalar\/js\/scalar\.[A-Za-z0-9_-]{16}\.js)"><\/script>/.exec(page.body)![1]!;
  identity = (await app.inject({ method: "GET", url: hashedPath })).rawPayload;
});
afterAll(() => app.close());

describe("Scalar's bundle", () => {
  it("is loaded by the page from a content-hashed URL, cacheable for a year", async () => {
    const res = await app.inject({ method: "GET", url: hashedPath });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/javascript/);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.headers.vary).toBe("Accept-Encoding");
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{16}"$/);
    expect(identity.length).toBeGreaterThan(1_000_000);
    // The old URL still serves the same bytes, but is revalidated rather than kept.
    const old = await app.inject({ method: "GET", url: "/docs/scalar/js/scalar.js" });
    expect(old.statusCode).toBe(200);
    expect(old.rawPayload.equals(identity)).toBe(true);
    expect(old.headers["cache-control"]).toBe("public, no-cache");
    expect(old.headers.etag).toBe(res.headers.etag);
  });

  it("is sent brotli or gzip as accepted, each decoding to the same bytes under an ETag of its own", async () => {
    const br = await app.inject({ method: "GET", url: hashedPath, headers: { "accept-encoding": "gzip, deflate, br, zstd" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toBe("Accept-Encoding");
    expect(brotliDecompressSync(br.rawPayload).equals(identity)).toBe(true);
    const gz = await app.inject({ method: "GET", url: hashedPath, headers: { "accept-encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.rawPayload).equals(identity)).toBe(true);
    expect(new Set([br.headers.etag, gz.headers.etag, (await app.inject({ method: "GET", url: hashedPath })).headers.etag]).size).toBe(3);
    // Sizes of Scalar 1.76: 4.9 MB as is, about 1.4 MB gzip, 1.2 MB brotli.
    expect(gz.rawPayload.length).toBeLessThan(identity.length * 0.35);
    expect(br.rawPayload.length).toBeLessThan(gz.rawPayload.length);
    expect(Number(br.headers["content-length"])).toBe(br.rawPayload.length);
  });

  it("answers 304 without a body to a matching If-None-Match, and the full bundle to a stale one", async () => {
    const first = await app.inject({ method: "GET", url: hashedPath, headers: { "accept-encoding": "br" } });
    const again = await app.inject({ method: "GET", url: hashedPath, headers: { "accept-encoding": "br", "if-none-match": String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(first.headers.etag);
    const old = await app.inject({ method: "GET", url: "/docs/scalar/js/scalar.js", headers: { "accept-encoding": "br", "if-none-match": `"stale", W/${String(first.headers.etag)}` } });
    expect(old.statusCode).toBe(304);
    // A brotli ETag does not validate the gzip representation.
    const other = await app.inject({ method: "GET", url: hashedPath, headers: { "accept-encoding": "gzip", "if-none-match": String(first.headers.etag) } });
    expect(other.statusCode).toBe(200);
    expect(other.headers["content-encoding"]).toBe("gzip");
  });

  it("does not serve another content hash under the immutable name", async () => {
    const res = await app.inject({ method: "GET", url: "/docs/scalar/js/scalar.AAAAAAAAAAAAAAAA.js" });
    expect(res.statusCode).toBe(404);
  });
});

describe("chooseEncoding", () => {
  it("prefers brotli, then gzip, honours q=0 and *, and falls back to the bytes as they are", () => {
    expect(chooseEncoding(undefined)).toBe("identity");
    expect(chooseEncoding("")).toBe("identity");
    expect(chooseEncoding("gzip, deflate, br")).toBe("br");
    expect(chooseEncoding("gzip;q=1.0, br;q=0.5")).toBe("gzip");
    expect(chooseEncoding("br;q=0, gzip")).toBe("gzip");
    expect(chooseEncoding("deflate")).toBe("identity");
    expect(chooseEncoding("*")).toBe("br");
    expect(chooseEncoding("*;q=0, identity")).toBe("identity");
    expect(chooseEncoding("x-gzip")).toBe("gzip");
    expect(chooseEncoding("GZIP")).toBe("gzip");
    expect(chooseEncoding(["deflate", "gzip"])).toBe("gzip");
  });
});
