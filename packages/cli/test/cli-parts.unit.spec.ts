import { describe, expect, it } from "vitest";
import { AuthenticationError, ValidationError, type PairwiseResponse, type RankResponse } from "@adrank/sdk";
import { pairwiseLines } from "../src/commands/pairwise.ts";
import { copyForImages } from "../src/copy-file.ts";
import { errorLine } from "../src/error-line.ts";
import { htmlReport } from "../src/html-report.ts";
import { sniffImageType } from "../src/image-file.ts";
import { rankedTable } from "../src/ranked-table.ts";
import { UsageError } from "../src/usage-error.ts";

const ranked = (rank: number, id: string, score: number, extra: Partial<RankResponse["ranked"][number]> = {}) =>
  ({ rank, asset_url: `data:image/png;base64,AAAA${rank}`, asset_id: id, score, score_before_refine: score, score_layer: "image-only", asset_type: "social-feed", copy_context_included: false, image_only_score: score, copy_lift: 0, rationale: `Because ${id}`, product_read: "", confidence: "medium", panel_outcome: null, confidence_details: {}, details: {}, ...extra }) as RankResponse["ranked"][number];

const response = (over: Partial<RankResponse> = {}): RankResponse =>
  ({
    request_id: "7d0c2f8e-4f6b-4a43-9a55-1b1d6c3b2a10",
    ranked: [ranked(1, "hero.png", 4.21, { copy_lift: 0.35, panel_outcome: { winnerAssetId: "hero.png", loserAssetId: "alt.png", flipped: true, votesFor: 4, votesTotal: 5, consistency: 0.8 } }), ranked(2, "alt.png", 4.05, { copy_lift: -0.004 })],
    errors: [{ asset_url: "data:image/png;base64,BBBB", asset_id: "broken.png", error: "The image could not be decoded." }],
    summary: { goal: "purchase-intent", asset_type: "social-feed", platform: null, audience: "Runners", assets_ranked: 2, assets_failed: 1, scoring_evaluations: 3, repetitions_per_evaluation: 3, generator_samples_per_evaluation: 6, close_pair_refinement: { enabled: true, pairs_evaluated: 1, results: [] }, credits_used: 3, credits_remaining: 97 },
    ...over,
  }) as RankResponse;

describe("cli parts", () => {
  it("recognizes images by their bytes, not their names", () => {
    expect(sniffImageType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe("image/png");
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(sniffImageType(Buffer.from("RIFF\0\0\0\0WEBPVP8 "))).toBe("image/webp");
    expect(sniffImageType(Buffer.from("GIF89a"))).toBe("image/gif");
    expect(sniffImageType(Buffer.from("<svg xmlns="))).toBeNull();
    expect(sniffImageType(Buffer.alloc(0))).toBeNull();
  });

  it("applies one copy object to every image, or a map by file name, and refuses anything else", () => {
    expect(copyForImages({ headline: "Go" }, ["a.png", "b.png"])).toEqual([{ headline: "Go" }, { headline: "Go" }]);
    expect(copyForImages({ "b.png": { headline: "B" } }, ["a.png", "b.png"])).toEqual([null, { headline: "B" }]);
    expect(() => copyForImages({ "c.png": { headline: "C" } }, ["a.png"])).toThrow(/c.png, which is not among the images/);
    expect(() => copyForImages({ headline: 3 }, ["a.png"])).toThrow(UsageError);
    expect(() => copyForImages(["x"], ["a.png"])).toThrow(UsageError);
  });

  it("prints a ranked table with score, confidence, copy lift, panel, failures and the bill", () => {
    const table = rankedTable(response(), (id) => id ?? "?");
    expect(table.split("\n")).toEqual([
      "rank  image     score  confidence  copy lift  panel",
      "----  --------  -----  ----------  ---------  -------",
      "1     hero.png  4.21   medium      +0.35      flipped",
      "2     alt.png   4.05   medium      0.00",
      "failed: broken.png: The image could not be decoded.",
      "",
      "2 ranked, 1 failed; 3 credits used, 97 left",
    ]);
  });

  it("writes an HTML report with each image inline, and escapes every text", () => {
    const hostile = response({ ranked: [ranked(1, "<script>alert(1)</script>.png", 3.5, { rationale: 'Says "hi" & <b>bold</b>' })] });
    const html = htmlReport(hostile, [{ name: "<script>alert(1)</script>.png", dataUri: "data:image/png;base64,QUJD" }], "Report <1>");
    expect(html).toContain('<img src="data:image/png;base64,QUJD"');
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;.png");
    expect(html).toContain("Says &quot;hi&quot; &amp; &lt;b&gt;bold&lt;/b&gt;");
    expect(html).toContain("<title>Report &lt;1&gt;</title>");
    expect(html).toContain("default-src 'none'");
  });

  it("turns every failure into one line with the status, the server's sentence and the request id", () => {
    expect(errorLine(new AuthenticationError("The API key is missing or invalid.", { status: 401, requestId: "r-1", body: null }))).toEqual({
      line: "adrank: 401 Unauthorized: The API key is missing or invalid. (request id r-1)",
      code: 1,
    });
    expect(errorLine(new ValidationError("goal must be one of …", { status: 422, requestId: "r-2", body: null, field: "goal" })).line).toBe("adrank: 422 Unprocessable Entity: goal must be one of … [goal] (request id r-2)");
    expect(errorLine(new UsageError("give at least one image file"))).toEqual({ line: "adrank: give at least one image file (see adrank --help)", code: 2 });
    expect(errorLine(new AuthenticationError("Two\nlines.\r\n", { status: 401, requestId: null, body: null })).line).toBe("adrank: 401 Unauthorized: Two lines.");
  });

  it("prints the pair's winner, win rate, consistency and every vote", () => {
    const vote = (n: number, order: "ab" | "ba", winnerId: string) => ({ voterId: `voter-${n}`, order, winnerId, loserId: winnerId === "a.png" ? "b.png" : "a.png", response: "A" });
    const response = {
      request_id: "7d0c2f8e-4f6b-4a43-9a55-1b1d6c3b2a10",
      pairs: [{ pairId: "pair-1", aId: "a.png", bId: "b.png", status: "done", votes: [vote(1, "ab", "a.png"), vote(2, "ba", "a.png"), vote(3, "ab", "b.png"), vote(4, "ba", "a.png"), vote(5, "ab", "a.png")], winnerId: "a.png", votesFor: 4, votesTotal: 5, winRate: 0.8, consistency: 0.6 }],
      summary: { goal: "purchase-intent", platform: null, audience: "Runners", model: "sim", panel_size: 5, pairs_requested: 1, pairs_completed: 1, pairs_failed: 0, valid_votes: 5, pairwise_evaluations: 1, credits_used: 1, credits_remaining: 9 },
    } as PairwiseResponse;
    expect(pairwiseLines(response)).toEqual([
      "winner: a.png (4 of 5 votes, win rate 0.80, consistency 0.60; done)",
      "  voter-1 (ab): picked a.png",
      "  voter-2 (ba): picked a.png",
      "  voter-3 (ab): picked b.png",
      "  voter-4 (ba): picked a.png",
      "  voter-5 (ab): picked a.png",
      "1 credit used",
    ]);
  });
});
