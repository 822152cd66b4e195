import { describe, expect, it } from "vitest";
import { RankAudiencesRequest, RankedAsset, RankRequest, RankSummary } from "../src/index.ts";

// reuse_evaluations (issue 36): additive and off by default on both rank operations.

const asset = { url: "https://cdn.example.com/a.png" };
const audience = { name: "Runners" };

describe("reuse_evaluations", () => {
  it("defaults to false and takes a boolean only, on rank and on rank/audiences", () => {
    expect(RankRequest.parse({ assets: [asset], audience }).reuse_evaluations).toBe(false);
    expect(RankRequest.parse({ assets: [asset], audience, reuse_evaluations: true }).reuse_evaluations).toBe(true);
    expect(RankRequest.safeParse({ assets: [asset], audience, reuse_evaluations: "yes" }).success).toBe(false);
    const audiences = [audience, { name: "Walkers" }];
    expect(RankAudiencesRequest.parse({ assets: [asset], audiences }).reuse_evaluations).toBe(false);
    expect(RankAudiencesRequest.parse({ assets: [asset], audiences, reuse_evaluations: true }).reuse_evaluations).toBe(true);
    expect(RankAudiencesRequest.safeParse({ assets: [asset], audiences, reuse_evaluations: 1 }).success).toBe(false);
  });

  it("documents its pricing where the OpenAPI text comes from", () => {
    const description = (RankRequest.shape as unknown as { reuse_evaluations: { meta(): { description?: string } } }).reuse_evaluations.meta()?.description ?? "";
    expect(description).toMatch(/costs no credit/);
    expect(description).toMatch(/rate limit/);
    expect(description).toMatch(/data URIs/);
    expect(description).toMatch(/never shared between accounts/);
  });

  it("adds `reused` to a ranked asset and evaluations_reused to the summary, both optional for older servers", () => {
    expect(RankedAsset.shape.reused.safeParse(true).success).toBe(true);
    expect(RankedAsset.shape.reused.safeParse(undefined).success).toBe(true);
    expect(RankSummary.shape.evaluations_reused.safeParse(3).success).toBe(true);
    expect(RankSummary.shape.evaluations_reused.safeParse(-1).success).toBe(false);
    expect(RankSummary.shape.evaluations_reused.safeParse(undefined).success).toBe(true);
  });
});
