import { describe, expect, it } from "vitest";
import { withConfirmedCredits } from "../src/index.ts";

const pending = JSON.stringify({
  request_id: "r1",
  ranked: [{ rank: 1, asset_url: "data:image/png;base64,AAAA", rationale: 'says "credits_status":"pending" in its copy' }],
  summary: { goal: "ctr", scoring_evaluations: 3, credits_used: 3, credits_remaining: null, credits_status: "pending", models: { simulated: true } },
});

describe("withConfirmedCredits", () => {
  it("puts the ledger's figures into a pending answer and marks it confirmed, leaving every other byte alone", () => {
    const out = withConfirmedCredits(pending, { creditsUsed: 3, creditsRemaining: 97 });
    expect(out).not.toBeNull();
    const body = JSON.parse(out!);
    expect(body.summary).toEqual({ goal: "ctr", scoring_evaluations: 3, credits_used: 3, credits_remaining: 97, credits_status: "confirmed", models: { simulated: true } });
    expect(out!.replace('"credits_remaining":97,"credits_status":"confirmed"', '"credits_remaining":null,"credits_status":"pending"')).toBe(pending);
  });

  it("reports a settlement the ledger refused as nothing charged", () => {
    const body = JSON.parse(withConfirmedCredits(pending, { creditsUsed: 0, creditsRemaining: null })!);
    expect(body.summary).toMatchObject({ credits_used: 0, credits_remaining: null, credits_status: "confirmed" });
  });

  it("changes nothing in an answer that is not pending, or not an answer at all", () => {
    const confirmed = withConfirmedCredits(pending, { creditsUsed: 3, creditsRemaining: 97 })!;
    expect(withConfirmedCredits(confirmed, { creditsUsed: 5, creditsRemaining: 1 })).toBeNull();
    expect(withConfirmedCredits('{"request_id":"r"}', { creditsUsed: 1, creditsRemaining: 1 })).toBeNull();
    expect(withConfirmedCredits("null", { creditsUsed: 1, creditsRemaining: 1 })).toBeNull();
  });

  it("works on a stored template, whose image tokens JSON.parse would refuse", () => {
    const template = pending.replace("data:image/png;base64,AAAA", "\u0001f00d\u0001");
    expect(() => JSON.parse(template)).toThrow();
    const out = withConfirmedCredits(template, { creditsUsed: 3, creditsRemaining: 5 })!;
    expect(out).toContain("\u0001f00d\u0001");
    expect(out.endsWith('"credits_used":3,"credits_remaining":5,"credits_status":"confirmed","models":{"simulated":true}}}')).toBe(true);
  });

  it("cannot be fooled by the same words inside a caller's text", () => {
    const sneaky = JSON.stringify({ ranked: [{ rationale: '"credits_used":1,"credits_remaining":null,"credits_status":"pending"' }], summary: { credits_used: 2, credits_remaining: 8, credits_status: "confirmed" } });
    expect(withConfirmedCredits(sneaky, { creditsUsed: 0, creditsRemaining: 0 })).toBeNull();
  });
});
