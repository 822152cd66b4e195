import { describe, expect, it } from "vitest";
import { canonicalJson } from "../src/index.ts";

// The text an Idempotency-Key repeat is compared by: equal for bodies that mean the same,
// different for bodies that do not.

describe("canonicalJson", () => {
  it("sorts object keys and drops white space", () => {
    expect(canonicalJson({ goal: "engagement", assets: [], audience_id: "aud_1" })).toBe('{"assets":[],"audience_id":"aud_1","goal":"engagement"}');
  });

  it("gives the same text for the same body sent with keys reordered and spaced out", () => {
    const sent = '{\n  "audience": { "name": "Runners", "demographics": { "urgency": "high", "ageRange": "25-34" } },\n  "assets": [ { "url": "https://cdn.example.com/a.png", "id": "a" } ]\n}';
    const again = '{"assets":[{"id":"a","url":"https://cdn.example.com/a.png"}],"audience":{"demographics":{"ageRange":"25-34","urgency":"high"},"name":"Runners"}}';
    expect(canonicalJson(JSON.parse(sent))).toBe(canonicalJson(JSON.parse(again)));
    expect(canonicalJson(JSON.parse(sent))).toBe(again);
  });

  it("sorts keys at every depth, inside arrays too", () => {
    expect(canonicalJson({ b: { d: 1, c: [{ f: 2, e: 3 }] }, a: null })).toBe('{"a":null,"b":{"c":[{"e":3,"f":2}],"d":1}}');
  });

  it("keeps the order of arrays: it is part of the meaning", () => {
    expect(canonicalJson({ assets: ["a", "b"] })).not.toBe(canonicalJson({ assets: ["b", "a"] }));
    expect(canonicalJson([3, 1, 2])).toBe("[3,1,2]");
  });

  it("tells apart values that differ only in type or content", () => {
    expect(canonicalJson({ refine: true })).not.toBe(canonicalJson({ refine: "true" }));
    expect(canonicalJson({ n: 1 })).not.toBe(canonicalJson({ n: "1" }));
    expect(canonicalJson({ a: null })).not.toBe(canonicalJson({}));
    expect(canonicalJson({ name: "Runners" })).not.toBe(canonicalJson({ name: "runners" }));
  });

  it("drops keys whose value is undefined, as JSON.stringify does", () => {
    expect(canonicalJson({ a: 1, b: undefined })).toBe('{"a":1}');
    expect(canonicalJson({ a: 1, b: undefined })).toBe(canonicalJson({ a: 1 }));
    expect(canonicalJson([undefined, 1])).toBe(JSON.stringify([undefined, 1]));
  });

  it("escapes strings and keys exactly as JSON.stringify does", () => {
    const tricky = { 'quote"key': 'line\nbreak\t"q" \\ \u0001 é 🔑', "\u2028": "separator" };
    expect(JSON.parse(canonicalJson(tricky))).toEqual(tricky);
    expect(canonicalJson("é 🔑 \u0001")).toBe(JSON.stringify("é 🔑 \u0001"));
  });

  it("is a JSON text that parses back to the same value, and is stable over a round trip", () => {
    const body = {
      pairs: [{ pair_id: "p1", b: { image_url: "https://cdn.example.com/b.png", id: "b" }, a: { id: "a", image_url: "data:image/png;base64,iVBORw0KGgo=" } }],
      goal: "scroll-stopping",
      audience: { name: "Runners", description: null, demographics: {} },
      scores: [0, -1.5, 3e21, 0.1],
      async: false,
    };
    const text = canonicalJson(body);
    expect(JSON.parse(text)).toEqual(body);
    expect(canonicalJson(JSON.parse(text))).toBe(text);
  });

  it("writes scalars and empty containers as JSON does", () => {
    for (const value of [null, true, false, 0, -0, 42.5, "", "x", [], {}]) expect(canonicalJson(value), JSON.stringify(value)).toBe(JSON.stringify(value));
  });
});
