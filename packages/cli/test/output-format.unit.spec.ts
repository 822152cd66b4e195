import { describe, expect, it } from "vitest";
import { NotFoundError, UnexpectedResponseError, ServerError, ValidationError, ConnectionError, type RankResponse } from "@adrank/sdk";
import { byteSize, summarizeDataUri } from "../src/data-uri-summary.ts";
import { errorLine } from "../src/error-line.ts";
import { htmlReport } from "../src/html-report.ts";
import { jsonOutput, withDataUrisSummarized } from "../src/json-output.ts";
import { notTheApiHint } from "../src/not-the-api.ts";
import { fixed, signedFixed } from "../src/number-format.ts";
import { counted, nounFor } from "../src/plural.ts";
import { rankedTable } from "../src/ranked-table.ts";
import { UsageError } from "../src/usage-error.ts";

const CONSOLE = "http://127.0.0.1:8090";
const base64Of = (bytes: number) => Buffer.alloc(bytes, 7).toString("base64");

const oneImageRanked = (copyLift: number, credits: { used: number; left: number }) =>
  ({
    request_id: "r",
    ranked: [{ rank: 1, asset_url: `data:image/png;base64,${base64Of(35_000)}`, asset_id: "hero.png", score: 3, score_before_refine: 3, score_layer: "image-only", asset_type: "social-feed", copy_context_included: true, image_only_score: 3, copy_lift: copyLift, rationale: "Why", product_read: "", confidence: "low", panel_outcome: null, confidence_details: {}, details: {} }],
    errors: [],
    summary: { goal: "purchase-intent", asset_type: "social-feed", platform: null, audience: "Runners", assets_ranked: 1, assets_failed: 0, scoring_evaluations: 1, repetitions_per_evaluation: 3, generator_samples_per_evaluation: 6, close_pair_refinement: { enabled: false, pairs_evaluated: 0, results: [] }, credits_used: credits.used, credits_remaining: credits.left },
  }) as unknown as RankResponse;

describe("counts and numbers", () => {
  it("says 1 credit, 0 credits, 2 images", () => {
    expect(counted(1, "credit")).toBe("1 credit");
    expect(counted(0, "credit")).toBe("0 credits");
    expect(counted(2, "image")).toBe("2 images");
    expect(counted(1, "query", "queries")).toBe("1 query");
    expect(nounFor(1, "vote")).toBe("vote");
    expect(nounFor(5, "vote")).toBe("votes");
  });

  it("never prints -0.00, and signs only what is above zero", () => {
    expect(fixed(-0.004, 2)).toBe("0.00");
    expect(fixed(-0, 2)).toBe("0.00");
    expect(fixed(-0.4, 0)).toBe("0");
    expect(fixed(-0.006, 2)).toBe("-0.01");
    expect(fixed(4.2, 2)).toBe("4.20");
    expect(signedFixed(0.35, 2)).toBe("+0.35");
    expect(signedFixed(-0.004, 2)).toBe("0.00");
    expect(signedFixed(0.004, 2)).toBe("0.00");
    expect(signedFixed(-0.2, 2)).toBe("-0.20");
  });

  it("prints 1 credit in the singular and no -0.00 in the table and the HTML report", () => {
    const response = oneImageRanked(-0.001, { used: 1, left: 1 });
    const table = rankedTable(response, (id) => id ?? "?");
    expect(table).toContain("1 ranked, 0 failed; 1 credit used, 1 left");
    expect(table).not.toContain("-0.00");
    const html = htmlReport(response, [], "Ranking of 1 image");
    expect(html).toContain("· 1 credit.");
    expect(html).toContain("<p>Copy lift 0.00</p>");
  });
});

describe("--json output", () => {
  it("shortens data URIs to their header and decoded size", () => {
    expect(byteSize(512)).toBe("512 B");
    expect(byteSize(35_000)).toBe("34 KiB");
    expect(byteSize(3 * 1024 * 1024 + 100_000)).toBe("3.1 MiB");
    expect(summarizeDataUri(`data:image/png;base64,${base64Of(35_000)}`)).toBe("data:image/png;base64,… (34 KiB)");
    expect(summarizeDataUri(`data:image/gif;base64,${base64Of(10)}`)).toBe("data:image/gif;base64,… (10 B)");
    expect(summarizeDataUri("data:text/plain,hi%20there")).toBe("data:text/plain,… (8 B)");
    expect(summarizeDataUri("https://cdn.example.com/a.png")).toBe("https://cdn.example.com/a.png");
    expect(summarizeDataUri("database")).toBe("database");
  });

  it("leaves the rest of the API's JSON exactly as it came", () => {
    const response = oneImageRanked(0.35, { used: 1, left: 1 });
    const printed = JSON.parse(jsonOutput(response));
    expect(printed.ranked[0].asset_url).toBe("data:image/png;base64,… (34 KiB)");
    expect({ ...printed, ranked: [{ ...printed.ranked[0], asset_url: "x" }] }).toEqual({ ...response, ranked: [{ ...response.ranked[0], asset_url: "x" }] });
    expect(withDataUrisSummarized({ a: [1, null, true, { b: `data:image/webp;base64,${base64Of(2048)}` }] })).toEqual({ a: [1, null, true, { b: "data:image/webp;base64,… (2 KiB)" }] });
    expect(jsonOutput({ n: 1 })).toBe('{\n  "n": 1\n}\n');
  });
});

describe("an address that is not the API", () => {
  it("hints at the console when the answer has no request id: a 404, an HTML page, a body off the contract", () => {
    const console404 = new NotFoundError("Not found.", { status: 404, requestId: null, body: { error: "Not found." } });
    expect(notTheApiHint(console404, CONSOLE)).toBe(`${CONSOLE} does not look like the adrank API (no X-Request-Id in its answer); the API is usually on port 8080 — the console is on 8090`);
    const page = new UnexpectedResponseError("The 200 response does not match the API contract: invalid.", { status: 200, requestId: null, body: "<!doctype html><html>…" });
    expect(notTheApiHint(page, "http://127.0.0.1:3000")).toMatch(/^http:\/\/127\.0\.0\.1:3000 does not look like the adrank API \(it answered with an HTML page\)/);
    expect(errorLine(console404, CONSOLE)).toEqual({ line: `adrank: ${notTheApiHint(console404, CONSOLE)}`, code: 1 });
  });

  it("says nothing extra for the API's own errors, a lost connection, or a proxy's 5xx", () => {
    expect(notTheApiHint(new NotFoundError("Audience not found.", { status: 404, requestId: "r-1", body: { error: "Audience not found." } }), CONSOLE)).toBeNull();
    expect(notTheApiHint(new ValidationError("bad", { status: 422, requestId: null, body: {}, field: "goal" }), CONSOLE)).toBeNull();
    expect(notTheApiHint(new ConnectionError("Could not reach", { status: 0, requestId: null, body: null }), CONSOLE)).toBeNull();
    expect(notTheApiHint(new ServerError("502 Bad Gateway", { status: 502, requestId: null, body: "" }), CONSOLE)).toBeNull();
    expect(notTheApiHint(new Error("boom"), CONSOLE)).toBeNull();
  });

  it("points to --help only when the usage message does not already say what to do", () => {
    expect(errorLine(new UsageError("give at least one image file")).line).toBe("adrank: give at least one image file (see adrank --help)");
    expect(errorLine(new UsageError('unknown goal "x"; did you mean "y"?', { seeHelp: false }))).toEqual({ line: 'adrank: unknown goal "x"; did you mean "y"?', code: 2 });
  });
});
