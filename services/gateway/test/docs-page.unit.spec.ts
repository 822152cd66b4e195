import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Fastify, { type FastifyInstance } from "fastify";
import { buildOpenApiDocument } from "@adrank/api-docs";
import docsRoutes from "../src/routes/docs/index.ts";

// The docs page on its own (it needs no database or bus): what it loads, what it allows,
// and how Scalar is told to stay offline. The browser test (test/e2e/docs-page) renders it.

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify();
  await app.register(docsRoutes);
  await app.ready();
});
afterAll(() => app.close());

const directives = (csp: string) => new Map(csp.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));

describe("GET /docs", () => {
  it("is an HTML page without inline script, under a policy that allows only this origin", async () => {
    const page = await app.inject({ method: "GET", url: "/docs" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    const csp = directives(String(page.headers["content-security-policy"]));
    expect(csp.get("default-src")).toEqual(["'none'"]);
    expect(csp.get("script-src")).toEqual(["'self'"]);
    expect(csp.get("connect-src")).toEqual(["'self'"]);
    expect(csp.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    // Every script either loads from this origin or is data the browser never runs.
    const scripts = [...page.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(3);
    for (const [, attributes, body] of scripts) expect(/\ssrc="\//.test(attributes!) || (/type="application\/json"/.test(attributes!) && body === ""), attributes).toBe(true);
    expect(page.body).not.toMatch(/https?:\/\//);
  });

  it("tells Scalar to load no fonts, send no telemetry and offer no AI or hosted features", async () => {
    const page = await app.inject({ method: "GET", url: "/docs" });
    const attribute = /data-configuration="([^"]*)"/.exec(page.body)![1]!;
    const configuration = JSON.parse(attribute.replaceAll("&quot;", '"').replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&"));
    expect(configuration).toMatchObject({
      url: "/docs/json",
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      mcp: { disabled: true },
      hideClientButton: true,
      showDeveloperTools: "never",
    });
    expect(configuration.proxyUrl).toBeUndefined();
  });

  it("serves Scalar's bundle from the package, its zod setting, and the document at /docs/json", async () => {
    const bundle = await app.inject({ method: "GET", url: "/docs/scalar/js/scalar.js" });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers["content-type"]).toMatch(/javascript/);
    expect(bundle.body.length).toBeGreaterThan(1_000_000);
    // Loaded first, so that the zod inside the bundle never probes for eval (a CSP violation).
    const jitless = await app.inject({ method: "GET", url: "/docs/zod-jitless.js" });
    expect(jitless.headers["content-type"]).toMatch(/javascript/);
    expect(jitless.body).toContain("jitless: true");
    const json = await app.inject({ method: "GET", url: "/docs/json" });
    expect(json.json()).toEqual(buildOpenApiDocument());
  });

  it("sends the plugin's own page, which the policy would break, and /docs/ to /docs", async () => {
    for (const url of ["/docs/", "/docs/scalar", "/docs/scalar/"]) {
      const res = await app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(300);
      expect(res.statusCode, url).toBeLessThan(400);
    }
    const pluginPage = await app.inject({ method: "GET", url: "/docs/scalar/" });
    expect(pluginPage.headers.location).toBe("/docs");
  });
});
