import { describe, expect, it } from "vitest";
import { reportedCredits, withConfirmedCredits } from "../src/index.ts";

describe("reportedCredits", () => {
  it("reads what the summary told the caller, from the answer or its stored template", () => {
    const answer = JSON.stringify({ ranked: [{ asset_url: "data:image/png;base64,AAAA" }], summary: { credits_used: 3, credits_remaining: null, credits_status: "pending", models: {} } });
    expect(reportedCredits(answer)).toEqual({ creditsUsed: 3, creditsRemaining: null, status: "pending" });
    const template = answer.replace("data:image/png;base64,AAAA", "\u0001abc\u0001");
    expect(reportedCredits(template)).toEqual({ creditsUsed: 3, creditsRemaining: null, status: "pending" });
    expect(reportedCredits(withConfirmedCredits(template, { creditsUsed: 3, creditsRemaining: 7 })!)).toEqual({ creditsUsed: 3, creditsRemaining: 7, status: "confirmed" });
  });

  it("reads answers stored before credits_status existed, and nothing from a caller's text or a body without credits", () => {
    expect(reportedCredits(JSON.stringify({ pairs: [], summary: { credits_used: 2, credits_remaining: 40 } }))).toEqual({ creditsUsed: 2, creditsRemaining: 40, status: null });
    expect(reportedCredits(JSON.stringify({ ranked: [{ rationale: '"credits_used":9,"credits_remaining":1' }], summary: { goal: "x" } }))).toBeNull();
    expect(reportedCredits('{"state":"failed"}')).toBeNull();
  });
});
