import type { ServerResponse } from "node:http";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createImageIntake, type HostResolver, type ImageIntakeOptions, type IntakeResult, type PreparedImage } from "../src/index.ts";
import { makeSelfSignedCert, type TestCert } from "./support/self-signed-cert.ts";
import { startTestHttpsServer, type TestHttpsServer } from "./support/test-https-server.ts";
import { photoLike } from "./support/test-images.ts";

// Every connection in this file goes to 127.0.0.1. Targets that must be refused are spelled so
// that a regression would reach this same server, where the connection counter catches it.

let cert: TestCert;
let server: TestHttpsServer;
let png: Buffer;

const MiB = 1024 * 1024;

/** Maps the test names to loopback, counting how often it is asked. */
function testResolver(table: Record<string, string[]> = {}): HostResolver & { calls: string[] } {
  const calls: string[] = [];
  const resolver = async (hostname: string) => {
    calls.push(hostname);
    const addresses = table[hostname] ?? (hostname.endsWith("images.test") ? ["127.0.0.1"] : []);
    if (addresses.length === 0) throw Object.assign(new Error(`no such host ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? (6 as const) : (4 as const) }));
  };
  return Object.assign(resolver, { calls });
}

function intakeWith(options: ImageIntakeOptions = {}) {
  return createImageIntake({ allowLoopback: true, ca: cert.cert, onWarning: () => {}, resolver: testResolver(), ...options });
}

function prepared(result: IntakeResult): PreparedImage {
  if (!result.ok) throw new Error(`expected an image, got: ${result.error}`);
  return result.image;
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location }).end();
}

beforeAll(async () => {
  cert = makeSelfSignedCert();
  png = await (await photoLike(640, 480)).png().toBuffer();
});

beforeEach(async () => {
  server = await startTestHttpsServer(cert);
  server.route("/ad.png", (_req, res) => res.writeHead(200, { "content-type": "image/png" }).end(png));
});

afterEach(async () => {
  await server.close();
});

describe("fetching from an https server on 127.0.0.1", () => {
  it("is accepted with the loopback test setting on", async () => {
    const image = prepared(await intakeWith().intake(`${server.origin}/ad.png`));
    expect(image.source).toMatchObject({ format: "png", width: 640, height: 480, byteLength: png.byteLength });
    expect(server.requests.map((r) => r.path)).toEqual(["/ad.png"]);
  });

  it("is refused with it off, without opening a connection", async () => {
    const result = await createImageIntake({ ca: cert.cert }).intake(`${server.origin}/ad.png`);
    expect(result).toMatchObject({
      ok: false,
      kind: "address-refused",
      error: "images are fetched from public addresses only: the address 127.0.0.1 is a loopback address",
    });
    expect(server.connections()).toBe(0);
  });

  it.each([
    ["decimal", "2130706433"],
    ["octal", "0177.0.0.1"],
    ["hex", "0x7f.0.0.1"],
    ["short", "127.1"],
    ["IPv6 loopback", "[::1]"],
    ["IPv4-mapped IPv6", "[::ffff:127.0.0.1]"],
    ["IPv4-mapped IPv6 in hex", "[::ffff:7f00:1]"],
  ])("classifies a %s IP literal host instead of passing it through", async (_form, host) => {
    const result = await createImageIntake({ ca: cert.cert }).intake(`https://${host}:${server.port}/ad.png`);
    expect(result).toMatchObject({ ok: false, kind: "address-refused" });
    expect(server.connections()).toBe(0);
  });

  it("reaches ::1 with the test setting on, when this machine has IPv6 loopback", async (ctx) => {
    const v6 = await startTestHttpsServer(cert, "::1").catch(() => null);
    if (!v6) return ctx.skip();
    v6.route("/ad.png", (_req, res) => res.writeHead(200).end(png));
    try {
      prepared(await intakeWith().intake(`${v6.origin}/ad.png`));
      expect(await createImageIntake({ ca: cert.cert }).intake(`${v6.origin}/ad.png`)).toMatchObject({ ok: false, kind: "address-refused" });
      expect(v6.connections()).toBe(1);
    } finally {
      await v6.close();
    }
  });

  it("refuses an IPv4-mapped loopback even with the test setting on", async () => {
    const result = await intakeWith().intake(`https://[::ffff:127.0.0.1]:${server.port}/ad.png`);
    expect(result).toMatchObject({ ok: false, kind: "address-refused" });
    expect(server.connections()).toBe(0);
  });

  it("refuses userinfo without opening a connection", async () => {
    const result = await intakeWith().intake(`https://user:pass@127.0.0.1:${server.port}/ad.png`);
    expect(result).toMatchObject({ ok: false, error: "image URLs must not carry a user name or password" });
    expect(server.connections()).toBe(0);
  });

  it("answers a 404 with a sentence", async () => {
    const result = await intakeWith().intake(`${server.origin}/missing.png`);
    expect(result).toMatchObject({ ok: false, kind: "fetch-failed", error: "the image URL answered HTTP 404 (Not Found) instead of the image" });
  });

  it("judges the bytes, not the Content-Type", async () => {
    server.route("/page", (_req, res) => res.writeHead(200, { "content-type": "image/png" }).end("<!DOCTYPE html><html><body>hi</body></html>"));
    const result = await intakeWith().intake(`${server.origin}/page`);
    expect(result).toMatchObject({ ok: false, kind: "not-an-image", error: "the image URL did not return a PNG, JPEG, WebP or GIF image: the bytes are an HTML page" });
  });

  it("refuses a certificate it does not trust", async () => {
    const result = await createImageIntake({ allowLoopback: true, onWarning: () => {} }).intake(`${server.origin}/ad.png`);
    expect(result).toMatchObject({ ok: false, kind: "fetch-failed", error: "the image host 127.0.0.1 did not present a valid TLS certificate for its name" });
  });
});

describe("DNS", () => {
  it("connects to the vetted address while keeping the name for TLS and Host, resolving once", async () => {
    const resolver = testResolver();
    const image = prepared(await intakeWith({ resolver }).intake(`https://images.test:${server.port}/ad.png`));
    expect(image.source.format).toBe("png");
    // Node never looked the name up itself: "images.test" exists only in the injected resolver.
    expect(resolver.calls).toEqual(["images.test"]);
    expect(server.requests).toEqual([{ path: "/ad.png", host: `images.test:${server.port}` }]);
  });

  it("refuses a name resolving to 127.0.0.1 with the test setting off, without connecting", async () => {
    const result = await createImageIntake({ ca: cert.cert, resolver: testResolver() }).intake(`https://images.test:${server.port}/ad.png`);
    expect(result).toMatchObject({
      ok: false,
      kind: "address-refused",
      error: "images are fetched from public addresses only, and images.test resolves to one that is not: the address 127.0.0.1 is a loopback address",
    });
    expect(server.connections()).toBe(0);
  });

  it("refuses a name when ANY of its addresses is refused", async () => {
    const resolver = testResolver({ "mixed.images.test": ["127.0.0.1", "10.0.0.5"] });
    const result = await intakeWith({ resolver }).intake(`https://mixed.images.test:${server.port}/ad.png`);
    expect(result).toMatchObject({ ok: false, kind: "address-refused" });
    expect(result.ok || result.error).toContain("the address 10.0.0.5 is in a private network");
    expect(server.connections()).toBe(0);
  });

  it("says when a name does not resolve", async () => {
    const result = await intakeWith().intake("https://nowhere.invalid/ad.png");
    expect(result).toMatchObject({ ok: false, kind: "fetch-failed", error: "the image host name nowhere.invalid could not be resolved" });
  });
});

describe("redirects", () => {
  function chain(prefix: string, hops: number): string {
    for (let i = 1; i <= hops; i++) {
      const next = i === hops ? "/ad.png" : `/${prefix}${i + 1}`;
      server.route(`/${prefix}${i}`, (_req, res) => redirect(res, next));
    }
    return `${server.origin}/${prefix}1`;
  }

  it("follows a chain of 3", async () => {
    prepared(await intakeWith().intake(chain("r", 3)));
    expect(server.requests.map((r) => r.path)).toEqual(["/r1", "/r2", "/r3", "/ad.png"]);
  });

  it("refuses a chain of 4 without following the 4th", async () => {
    const result = await intakeWith().intake(chain("s", 4));
    expect(result).toMatchObject({ ok: false, kind: "fetch-failed", error: "the image URL redirected more than 3 times" });
    expect(server.requests.map((r) => r.path)).toEqual(["/s1", "/s2", "/s3", "/s4"]);
  });

  it("refuses a redirect to http://", async () => {
    server.route("/to-http", (_req, res) => redirect(res, `http://127.0.0.1:${server.port}/ad.png`));
    const result = await intakeWith().intake(`${server.origin}/to-http`);
    expect(result).toMatchObject({ ok: false, error: "the image URL redirected to a non-https URL (http:), and only https redirects are followed" });
    expect(server.connections()).toBe(1);
  });

  it("refuses a redirect to a private address", async () => {
    const resolver = testResolver({ "internal.images.test": ["10.0.0.5"] });
    server.route("/to-private", (_req, res) => redirect(res, "https://internal.images.test/metadata"));
    const result = await intakeWith({ resolver, timeoutMs: 1000 }).intake(`${server.origin}/to-private`);
    expect(result).toMatchObject({
      ok: false,
      kind: "address-refused",
      error: "after a redirect, images are fetched from public addresses only, and internal.images.test resolves to one that is not: the address 10.0.0.5 is in a private network",
    });
  });

  it("checks every hop's address again", async () => {
    server.route("/to-mapped", (_req, res) => redirect(res, `https://[::ffff:127.0.0.1]:${server.port}/ad.png`));
    const result = await intakeWith().intake(`${server.origin}/to-mapped`);
    expect(result).toMatchObject({ ok: false, kind: "address-refused" });
    expect(server.connections()).toBe(1);
  });
});

describe("size and time limits", () => {
  it("refuses a 12 MiB body announced by Content-Length before reading it", async () => {
    let closed = false;
    server.route("/big", (_req, res) => {
      res.writeHead(200, { "content-length": String(12 * MiB) });
      res.write(Buffer.alloc(64 * 1024)); // and then never another byte
      res.on("close", () => (closed = true));
    });
    const started = performance.now();
    const result = await intakeWith({ timeoutMs: 5000 }).intake(`${server.origin}/big`);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(result).toMatchObject({ ok: false, kind: "too-large", error: "the image is 12 MiB, over the 10 MiB limit" });
    await expect.poll(() => closed).toBe(true);
  });

  it("cuts off a 12 MiB chunked body without a length at the 10 MiB cap", async () => {
    let written = 0;
    let finished = false;
    server.route("/stream", (_req, res) => {
      res.writeHead(200, { "content-type": "image/png" });
      const chunk = Buffer.alloc(256 * 1024, 1);
      const pump = () => {
        while (written < 12 * MiB && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        if (!res.destroyed) res.end(() => (finished = true));
      };
      pump();
    });
    const result = await intakeWith().intake(`${server.origin}/stream`);
    expect(result).toMatchObject({ ok: false, kind: "too-large", error: "the image is larger than the 10 MiB limit" });
    expect(finished).toBe(false);
  });

  it("stops downloading an endless body soon after the cap", async () => {
    let written = 0;
    let closed = false;
    server.route("/endless", (_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(256 * 1024, 2);
      res.on("close", () => (closed = true));
      const pump = () => {
        while (!res.destroyed && written < 200 * MiB) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
      };
      pump();
    });
    const result = await intakeWith({ maxBytes: 1 * MiB }).intake(`${server.origin}/endless`);
    expect(result).toMatchObject({ ok: false, kind: "too-large", error: "the image is larger than the 1 MiB limit" });
    await expect.poll(() => closed).toBe(true);
    expect(written).toBeLessThan(32 * MiB);
  });

  it("gives up on a server that never answers after the configured time", async () => {
    server.route("/hang", () => {});
    const started = performance.now();
    const result = await intakeWith({ timeoutMs: 300 }).intake(`${server.origin}/hang`);
    const elapsed = performance.now() - started;
    expect(result).toMatchObject({ ok: false, kind: "timed-out", error: "the image did not arrive within 0.3 s" });
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1500);
  });

  it("counts the time across a slow body too", async () => {
    server.route("/trickle", (_req, res) => {
      res.writeHead(200);
      res.write(png.subarray(0, 100)); // and the rest never comes
    });
    const result = await intakeWith({ timeoutMs: 300 }).intake(`${server.origin}/trickle`);
    expect(result).toMatchObject({ ok: false, kind: "timed-out" });
  });

  it("stops when the caller's signal aborts", async () => {
    server.route("/hang", () => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    const result = await intakeWith().intake(`${server.origin}/hang`, controller.signal);
    expect(result).toMatchObject({ ok: false, kind: "cancelled", error: "the image intake was cancelled" });
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
