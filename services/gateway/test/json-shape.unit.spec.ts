import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { OUTCOMES_PER_REQUEST_MAX } from "@adrank/contracts";
import { ABUSE_LIMIT_DEFAULTS } from "../src/http/abuse-limits.ts";
import { jsonShapeProblem, type JsonShapeLimits } from "../src/http/json-shape.ts";

const limits: JsonShapeLimits = { maxDepth: ABUSE_LIMIT_DEFAULTS.jsonMaxDepth, maxItems: ABUSE_LIMIT_DEFAULTS.jsonMaxItems };
const problem = (text: string | Buffer, l: JsonShapeLimits = limits) => jsonShapeProblem(Buffer.isBuffer(text) ? text : Buffer.from(text), l);
const MiB = 1024 * 1024;
const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

/** The guard's time on `body`, the best of three runs (the machine is shared). */
function bestMs(body: Buffer, run: (b: Buffer) => unknown): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    run(body);
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

describe("jsonShapeProblem", () => {
  it("accepts nesting up to the limit and refuses one level more, arrays and objects alike", () => {
    expect(problem(nested(32))).toBeNull();
    expect(problem(nested(33))).toBe("The request body nests arrays and objects more than 32 levels deep, the most this API accepts.");
    expect(problem(`${'{"a":'.repeat(33)}1${"}".repeat(33)}`)).toMatch(/more than 32 levels deep/);
    // Depth is how far in, not how many: siblings never add up.
    expect(problem(`[${Array.from({ length: 500 }, () => nested(30)).join(",")}]`)).toBeNull();
  });

  it("counts array elements and object members, an empty one as one, and refuses past the limit", () => {
    const items = (n: number) => `[${Array(n).fill("0").join(",")}]`;
    expect(problem(items(250_000))).toBeNull();
    expect(problem(items(250_001))).toBe("The request body holds more than 250,000 array elements and object members, the most this API accepts.");
    const small = { maxDepth: 32, maxItems: 100 };
    expect(problem(`[${Array(50).fill("{}").join(",")}]`, small)).toBeNull();
    expect(problem(`[${Array(51).fill("{}").join(",")}]`, small)).toMatch(/more than 100 array elements/);
  });

  it("ignores brackets, commas and escaped quotes inside strings", () => {
    expect(problem(JSON.stringify({ copy: "[".repeat(10_000), list: ",".repeat(50_000), q: '\\"[[[[' + '"'.repeat(100) }))).toBeNull();
    expect(problem(JSON.stringify(["\\", "\\\\", '\\"', "[{"]))).toBeNull();
    // An escaped quote does not end the string; the bracket after the real end counts.
    expect(problem(`["a\\"${"[".repeat(40)}"${",[".repeat(40)}${"]".repeat(40)}]`)).toMatch(/levels deep/);
    // Multi-byte UTF-8 never hides a bracket.
    expect(problem(JSON.stringify({ name: "日本語 ☃ 🎉 \u00e9", deep: JSON.parse(nested(20)) }))).toBeNull();
  });

  it("leaves what is not JSON to JSON.parse", () => {
    expect(problem("]]]]" + "[".repeat(100))).toBeNull();
    expect(problem('["unterminated')).toBeNull();
    expect(problem("")).toBeNull();
  });

  it("passes the largest bodies the API takes (500 outcomes, a rank of 20 assets with full copy and demographics), and leaves 100,000 assets to the schema", () => {
    const outcome = { request_id: "6f1c1a5e-9a4b-4c1e-8b8a-0c6f0b9f3a11", asset_id: "a1", metric: "ctr", value: 0.012, impressions: 10_000 };
    expect(problem(JSON.stringify({ outcomes: Array(OUTCOMES_PER_REQUEST_MAX).fill(outcome) }))).toBeNull();
    const copy = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, "v"]));
    const demographics = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`d${i}`, "v"]));
    const rank = { assets: Array.from({ length: 20 }, (_, i) => ({ url: "https://cdn.example/a.png", id: `a${i}`, copy_context: copy })), audience: { name: "x", description: "y", demographics }, goal: "ctr" };
    expect(problem(JSON.stringify(rank))).toBeNull();
    // The hostile corpus expects the schema's 422 on `assets` for this one.
    expect(problem(JSON.stringify({ assets: Array.from({ length: 100_000 }, () => ({ url: "https://example.com/a.png" })), audience: { name: "x" } }))).toBeNull();
  });

  it("is linear: 25 MiB worst cases pass in well under a second, and a real 25 MiB rank body costs little next to JSON.parse", () => {
    const cases: Array<[string, Buffer]> = [
      ["25 MiB of [", Buffer.alloc(25 * MiB, "[")],
      ["25 MiB of `0,` inside one array (no strings to skip)", Buffer.from(`[${"0,".repeat(12.5 * MiB - 1)}0]`)],
      ["25 MiB of backslashes in one string", Buffer.from(`["${"\\".repeat(25 * MiB - 4)}"]`)],
      ['25 MiB of \\" pairs in one string', Buffer.from(`["${'\\"'.repeat(12.5 * MiB - 2)}"]`)],
      ["25 MiB of strings of 300 bytes, each an escaped quote from its end", Buffer.from(`[${`"${"x".repeat(297)}\\""`.repeat(Math.floor((25 * MiB) / 302)).replace(/""/g, '","')}]`)],
      ["25 MiB of one-character strings", Buffer.from(`[${'"a",'.repeat(6.25 * MiB - 1)}"a"]`)],
    ];
    const limitsOff = { maxDepth: 1_000_000_000, maxItems: 1_000_000_000 };
    for (const [name, body] of cases) {
      const verdict = jsonShapeProblem(body, limits) === null ? "accepted" : "refused";
      const withLimits = bestMs(body, (b) => jsonShapeProblem(b, limits));
      const fullPass = bestMs(body, (b) => jsonShapeProblem(b, limitsOff));
      console.log(`${name}: ${verdict} in ${withLimits.toFixed(1)} ms; a full pass without limits ${fullPass.toFixed(1)} ms`);
      expect(fullPass).toBeLessThan(1_000);
    }

    // A legitimate rank at the body limit: 20 assets, data-URI images of about 1.2 MiB each.
    const image = () => `data:image/png;base64,${randomBytes(Math.floor(0.93 * MiB)).toString("base64")}`;
    const body = Buffer.from(JSON.stringify({ assets: Array.from({ length: 20 }, (_, i) => ({ url: image(), id: `asset-${i}`, copy_context: { headline: "Fresh coffee", cta: "Order now" } })), audience: { name: "Commuters", demographics: { ageRange: "25-34" } } }));
    expect(body.length).toBeGreaterThan(24 * MiB);
    expect(body.length).toBeLessThan(25 * MiB);
    expect(jsonShapeProblem(body, limits)).toBeNull();
    const guard = bestMs(body, (b) => jsonShapeProblem(b, limits));
    const parse = bestMs(body, (b) => JSON.parse(b.toString("utf8")));
    console.log(`a ${(body.length / MiB).toFixed(1)} MiB rank body of 20 data-URI images: guard ${guard.toFixed(1)} ms, decode and JSON.parse ${parse.toFixed(1)} ms (${((100 * guard) / parse).toFixed(0)}%)`);
    expect(guard).toBeLessThan(parse);
  }, 60_000);
});
