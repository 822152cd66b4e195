import { describe, expect, it } from "vitest";
import { anthropicErrorMeaning, anthropicRetryAfterMs, anthropicThinkingPlan } from "../src/adapters/anthropic.ts";
import { ANTHROPIC_API_VERSION, ANTHROPIC_STOP_REASONS, anthropicCapabilityRows, anthropicModelRules, anthropicStopMeaning } from "../src/capabilities/anthropic.ts";

// The SDK's StopReason union (node_modules/@anthropic-ai/sdk/resources/messages/messages.d.ts).
const SDK_STOP_REASONS = ["end_turn", "max_tokens", "stop_sequence", "tool_use", "pause_turn", "refusal", "model_context_window_exceeded"];

describe("anthropicModelRules", () => {
  it.each([
    ["claude-sonnet-4-5", "enabled-only"],
    ["claude-sonnet-4-5-20250929", "enabled-only"],
    ["claude-haiku-4-5", "enabled-only"],
    ["claude-haiku-4-5-20251001", "enabled-only"],
    ["claude-opus-4-5", "enabled-only"],
    ["claude-opus-4-5-20251101", "enabled-only"],
    ["claude-sonnet-4-6", "enabled-or-adaptive"],
    ["claude-opus-4-6", "enabled-or-adaptive"],
    ["claude-opus-4-7", "adaptive-only"],
    ["claude-opus-4-8", "adaptive-only"],
    ["claude-fable-5", "adaptive-only"],
    ["claude-sonnet-5-5", "adaptive-only"],
  ] as const)("%s takes %s thinking and never a temperature", (model, thinking) => {
    const rules = anthropicModelRules(model);
    expect(rules).toMatchObject({ known: true, thinking, temperature: null });
  });

  it("reads a dated snapshot as its family", () => {
    expect(anthropicModelRules("claude-sonnet-4-5-20250929").family).toBe("claude-sonnet-4-5");
    expect(anthropicModelRules("claude-opus-4-7-20261001")).toMatchObject({ known: true, family: "claude-opus-4-7" });
  });

  it("gives an unknown model the safe choice, without throwing", () => {
    for (const model of ["claude-sonnet-9", "claude-opus-4-7-beta", "", "gpt-4.1", "claude-sonnet-4-5-2025"]) {
      expect(anthropicModelRules(model)).toMatchObject({ known: false, temperature: null, thinking: "none", thinksByDefault: false, turnOff: null });
    }
  });

  it("knows each model's output maximum", () => {
    expect(anthropicModelRules("claude-haiku-4-5").maxOutputTokens).toBe(64_000);
    expect(anthropicModelRules("claude-opus-4-7").maxOutputTokens).toBe(128_000);
  });

  it("knows which models think without being asked and how each turns it off", () => {
    expect(anthropicModelRules("claude-opus-4-7")).toMatchObject({ thinksByDefault: false });
    expect(anthropicModelRules("claude-sonnet-5-5")).toMatchObject({ thinksByDefault: true, turnOff: "between_tools" });
    expect(anthropicModelRules("claude-opus-5")).toMatchObject({ thinksByDefault: true, turnOff: "disabled" });
    expect(anthropicModelRules("claude-opus-5-5")).toMatchObject({ thinksByDefault: true, turnOff: null });
    expect(anthropicModelRules("claude-mythos-preview")).toMatchObject({ thinking: "enabled-or-adaptive", thinksByDefault: true, turnOff: null });
  });
});

describe("anthropicThinkingPlan", () => {
  const plan = (model: string, budget?: number) => anthropicThinkingPlan(anthropicModelRules(model), budget);
  it("sends enabled with the budget to a model that takes manual thinking", () => {
    expect(plan("claude-sonnet-4-5", 2048)).toEqual({ thinking: { type: "enabled", budget_tokens: 2048 }, reserve: 2048 });
    // enabled is deprecated on 4.6: the supported adaptive mode is sent.
    expect(plan("claude-opus-4-6", 2048)).toEqual({ thinking: { type: "adaptive" }, reserve: 2048 });
  });
  it("sends adaptive to an adaptive-only model, the budget only sizing max_tokens", () => {
    expect(plan("claude-opus-4-7", 4096)).toEqual({ thinking: { type: "adaptive" }, reserve: 4096 });
  });
  it("sends no thinking to an unknown model", () => {
    expect(plan("claude-sonnet-9", 4096)).toEqual({ thinking: undefined, reserve: 4096 });
    expect(plan("claude-sonnet-9")).toEqual({ thinking: undefined, reserve: 0 });
  });
  it("without a budget, sends nothing to a model that does not think by default, turns default thinking off, or keeps room for it", () => {
    expect(plan("claude-haiku-4-5")).toEqual({ thinking: undefined, reserve: 0 });
    expect(plan("claude-sonnet-5-5")).toEqual({ thinking: { type: "between_tools" }, reserve: 0 });
    expect(plan("claude-fable-5")).toEqual({ thinking: undefined, reserve: 4096 });
  });
});

describe("Anthropic stop reasons", () => {
  it("covers every stop reason of the SDK", () => {
    expect(Object.keys(ANTHROPIC_STOP_REASONS).sort()).toEqual([...SDK_STOP_REASONS].sort());
  });
  it.each([
    ["end_turn", "answer"],
    ["stop_sequence", "answer"],
    ["max_tokens", "truncated"],
    ["refusal", "refused"],
    ["model_context_window_exceeded", "give-up"],
    ["pause_turn", "give-up"],
    ["tool_use", "ask-again"],
    ["something_new", "ask-again"],
    [null, "ask-again"],
  ] as const)("%s means %s", (stop, meaning) => {
    expect(anthropicStopMeaning(stop)).toBe(meaning);
  });
});

describe("anthropicErrorMeaning", () => {
  const e = (type: string | null, apiMessage: string | null, errorCode: string | null = null) => ({ type, apiMessage, errorCode });
  it.each([
    [e("invalid_request_error", "temperature: Extra inputs are not permitted"), "unsupported_parameter"],
    [e("invalid_request_error", '"thinking.type.enabled" is not supported for this model.'), "unsupported_parameter"],
    [e("invalid_request_error", "messages.0.content.0.image.source: Could not process image"), "content"],
    [e("invalid_request_error", "Your credit balance is too low to access the Anthropic API."), "quota_exhausted"],
    [e("invalid_request_error", "You have reached your specified workspace API usage limits."), "quota_exhausted"],
    [e("rate_limit_error", "monthly limit", "enforced_spend_limit_reached"), "quota_exhausted"],
    [e("billing_error", "billing"), "quota_exhausted"],
    [e("not_found_error", "model: claude-x"), "unknown_model"],
    [e("authentication_error", "invalid x-api-key"), "credentials"],
    [e("permission_error", "no access"), "credentials"],
    [e("overloaded_error", "Overloaded"), undefined],
    [e("rate_limit_error", "per minute"), undefined],
    [e("invalid_request_error", "messages: at least one message is required"), undefined],
  ] as const)("%o means %s", (error, meaning) => {
    expect(anthropicErrorMeaning(error)).toBe(meaning);
  });
});

describe("anthropicRetryAfterMs", () => {
  const now = Date.parse("2026-11-03T10:00:00Z");
  const headers = (h: Record<string, string>) => new Headers(h);
  it("prefers retry-after", () => {
    expect(anthropicRetryAfterMs(headers({ "retry-after": "4", "anthropic-ratelimit-requests-reset": "2026-11-03T10:00:30Z", "anthropic-ratelimit-requests-remaining": "0" }), 429, now)).toBe(4000);
  });
  it("on a 429 without one, waits for the latest reset among the exhausted limits", () => {
    const h = headers({
      "anthropic-ratelimit-requests-remaining": "0",
      "anthropic-ratelimit-requests-reset": "2026-11-03T10:00:05Z",
      "anthropic-ratelimit-tokens-remaining": "0",
      "anthropic-ratelimit-tokens-reset": "2026-11-03T10:00:12Z",
      "anthropic-ratelimit-output-tokens-remaining": "900",
      "anthropic-ratelimit-output-tokens-reset": "2026-11-03T10:00:50Z",
    });
    expect(anthropicRetryAfterMs(h, 429, now)).toBe(12_000);
  });
  it("ignores the reset headers on other statuses, and a reset in the past means now", () => {
    expect(anthropicRetryAfterMs(headers({ "anthropic-ratelimit-requests-reset": "2026-11-03T10:00:05Z" }), 500, now)).toBeUndefined();
    expect(anthropicRetryAfterMs(headers({ "anthropic-ratelimit-requests-reset": "2026-11-03T09:59:00Z" }), 529, now)).toBe(0);
  });
});

describe("anthropicCapabilityRows", () => {
  it("has a row per family, with no temperature, the SDK's API version and a documentation source", () => {
    const rows = anthropicCapabilityRows();
    for (const family of ["claude-sonnet-4-5", "claude-sonnet-4-6", "claude-opus-4-5", "claude-opus-4-6", "claude-opus-4-7", "claude-haiku-4-5"]) {
      expect(rows.some((r) => r.family.startsWith(family))).toBe(true);
    }
    for (const row of rows) {
      expect(row).toMatchObject({ provider: "anthropic", usableStops: "end_turn, stop_sequence", apiVersion: `${ANTHROPIC_API_VERSION} (the SDK's)` });
      expect(row.temperature).toMatch(/never sent/);
      expect(row.source).toMatch(/https:\/\/platform\.claude\.com\//);
    }
    expect(rows.find((r) => r.family.startsWith("claude-sonnet-4-5"))!.family).toContain("claude-sonnet-4-5-20250929");
  });
});
