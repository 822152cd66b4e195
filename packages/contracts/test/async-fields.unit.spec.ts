import { describe, expect, it } from "vitest";
import { PairwiseRequest, parseWith, RankRequest, WEBHOOK_URL_MAX_CHARS } from "../src/index.ts";

// async and webhook_url, the optional fields that make rank and pairwise asynchronous: the
// same rules, and the same 422, on both operations.

type Body = Record<string, unknown>;
const bodies = {
  rank: (extra: Body): Body => ({ assets: [{ url: "https://cdn.example.com/a.png" }], audience_id: "aud_1", ...extra }),
  pairwise: (extra: Body): Body => ({ pairs: [{ pair_id: "p1", a: { id: "a", image_url: "https://cdn.example.com/a.png" }, b: { id: "b", image_url: "https://cdn.example.com/b.png" } }], audience_id: "aud_1", ...extra }),
};
const schemas = { rank: RankRequest, pairwise: PairwiseRequest };
const HOOK = "https://hooks.example.com/adrank?source=ranking";

describe.each(["rank", "pairwise"] as const)("%s: async and webhook_url", (operation) => {
  const body = bodies[operation];
  const schema = schemas[operation];
  const refusal = (extra: Body) => {
    const result = parseWith(schema, body(extra));
    if (result.ok) throw new Error(`${JSON.stringify(extra)} was accepted`);
    expect(result.error.status).toBe(422);
    return result.error.body;
  };

  it("is synchronous by default", () => {
    expect(schema.parse(body({})).async).toBe(false);
    expect(schema.parse(body({})).webhook_url).toBeUndefined();
  });

  it("takes async: true alone, and with an https webhook_url kept as sent", () => {
    expect(schema.parse(body({ async: true }))).toMatchObject({ async: true });
    expect(schema.parse(body({ async: true, webhook_url: HOOK }))).toMatchObject({ async: true, webhook_url: HOOK });
  });

  it.each([
    ["without async", {}],
    ["with async: false", { async: false }],
  ])("refuses webhook_url %s, naming webhook_url", (_name, extra) => {
    expect(refusal({ ...extra, webhook_url: HOOK })).toEqual({ error: 'webhook_url needs "async": true; a synchronous request answers with its result instead.', field: "webhook_url" });
  });

  it.each([
    ["an http:// URL", "http://hooks.example.com/adrank", "webhook_url must be an https:// URL."],
    ["no URL at all", "hooks.example.com/adrank", "webhook_url must be an absolute https:// URL."],
    ["a URL with a user name and password", "https://user:secret@hooks.example.com/adrank", "webhook_url must not carry a user name or password."],
    ["a URL with a #fragment", "https://hooks.example.com/adrank#top", "webhook_url must not carry a #fragment."],
    ["an ftp:// URL", "ftp://hooks.example.com/adrank", "webhook_url must be an https:// URL."],
  ])("refuses %s as webhook_url, even with async: true", (_name, url, error) => {
    expect(refusal({ async: true, webhook_url: url })).toEqual({ error, field: "webhook_url" });
  });

  it(`refuses a webhook_url longer than ${WEBHOOK_URL_MAX_CHARS} characters`, () => {
    const long = `https://hooks.example.com/${"a".repeat(WEBHOOK_URL_MAX_CHARS)}`;
    expect(refusal({ async: true, webhook_url: long })).toEqual({ error: `webhook_url must be at most ${WEBHOOK_URL_MAX_CHARS} characters long.`, field: "webhook_url" });
  });

  it.each([
    ["a string", "true"],
    ["a number", 1],
    ["null", null],
  ])("refuses async as %s", (_name, value) => {
    expect(refusal({ async: value })).toMatchObject({ field: "async" });
  });

  it("refuses webhook_url that is not a string", () => {
    expect(refusal({ async: true, webhook_url: 42 })).toEqual({ error: "webhook_url must be a string.", field: "webhook_url" });
  });
});
