import { describe, expect, it } from "vitest";
import { geminiCapabilityRows, geminiFinishMeaning, geminiModelRules, thinkingPlan } from "../src/capabilities/gemini.ts";
import { isDailyQuota, meaningOfGoogleError, parseGoogleError, parseRetryDelay } from "../src/resilience/gemini-retry-info.ts";

describe("geminiModelRules", () => {
  it("knows the listed families under their dated, preview and -latest ids", () => {
    for (const [id, family] of [
      ["gemini-2.0-flash", "gemini-2.0-flash"], ["gemini-2.0-flash-001", "gemini-2.0-flash"], ["gemini-2.0-flash-lite", "gemini-2.0-flash-lite"],
      ["gemini-2.5-flash", "gemini-2.5-flash"], ["gemini-2.5-flash-preview-09-2025", "gemini-2.5-flash"], ["gemini-2.5-flash-lite", "gemini-2.5-flash-lite"],
      ["models/gemini-2.5-pro", "gemini-2.5-pro"], ["gemini-3-pro-preview", "gemini-3-pro"], ["gemini-3-flash-preview", "gemini-3-flash"], ["gemini-flash-latest", "gemini-flash-latest"],
      ["gemini-embedding-001", "gemini-embedding-001"], ["gemini-embedding-2", "gemini-embedding-2"],
    ] as const) {
      expect(geminiModelRules(id)).toMatchObject({ known: true, family, apiVersion: "v1beta" });
    }
  });

  it("gives an unknown id the safe choice, never a throw: no temperature, no thinking", () => {
    for (const id of ["gemini-9-ultra", "gemini-2.5-flash-image", "text-embedding-004", ""]) {
      expect(geminiModelRules(id)).toMatchObject({ known: false, temperature: null, thinking: { mode: "none" } });
    }
  });

  it("says which models think and how", () => {
    expect(geminiModelRules("gemini-2.0-flash").thinking).toEqual({ mode: "none" });
    expect(geminiModelRules("gemini-2.5-pro").thinking).toEqual({ mode: "budget", min: 128, max: 32768, canDisable: false, dynamic: true });
    expect(geminiModelRules("gemini-2.5-flash-lite").thinking).toMatchObject({ min: 512, canDisable: true });
    expect(geminiModelRules("gemini-3-pro-preview").thinking).toEqual({ mode: "level", levels: ["LOW", "HIGH"], defaultLevel: "HIGH" });
  });
});

describe("thinkingPlan", () => {
  const plan = (model: string, budget: number) => thinkingPlan(geminiModelRules(model), budget);
  it("sends nothing to 2.0 and to unknown models", () => {
    expect(plan("gemini-2.0-flash", 512)).toMatchObject({ thinkingTokens: 0 });
    expect(plan("gemini-2.0-flash", 512).config).toBeUndefined();
    expect(plan("gemini-9-ultra", 512).config).toBeUndefined();
  });
  it("clamps a budget into the 2.5 model's range and keeps 0 and -1 where they are valid", () => {
    expect(plan("gemini-2.5-pro", 0).config).toEqual({ thinkingBudget: 128, includeThoughts: false });
    expect(plan("gemini-2.5-pro", 100_000).config).toEqual({ thinkingBudget: 32768, includeThoughts: false });
    expect(plan("gemini-2.5-flash-lite", 100).config).toEqual({ thinkingBudget: 512, includeThoughts: false });
    expect(plan("gemini-2.5-flash", 0)).toEqual({ config: { thinkingBudget: 0, includeThoughts: false }, thinkingTokens: 0 });
    expect(plan("gemini-2.5-flash", -1).config).toEqual({ thinkingBudget: -1, includeThoughts: false });
    expect(plan("gemini-2.5-pro", 0).adjusted).toMatch(/budget 0 is sent as 128/);
  });
  it("maps a budget to a level Gemini 3 has", () => {
    expect(plan("gemini-3-flash-preview", 0).config).toEqual({ thinkingLevel: "MINIMAL", includeThoughts: false });
    expect(plan("gemini-3-pro-preview", 0).config).toEqual({ thinkingLevel: "LOW", includeThoughts: false });
    expect(plan("gemini-3-flash-preview", 4096).config).toEqual({ thinkingLevel: "MEDIUM", includeThoughts: false });
    expect(plan("gemini-3-pro-preview", 4096).config).toEqual({ thinkingLevel: "HIGH", includeThoughts: false });
    expect(plan("gemini-3-pro-preview", -1).config).toEqual({ thinkingLevel: "HIGH", includeThoughts: false });
  });
});

describe("geminiFinishMeaning", () => {
  it("takes only STOP as an answer", () => {
    expect(geminiFinishMeaning("STOP")).toBe("answer");
    expect(geminiFinishMeaning("MAX_TOKENS")).toBe("cut_off");
    for (const r of ["SAFETY", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY"]) expect(geminiFinishMeaning(r)).toBe("refused");
    for (const r of ["RECITATION", "OTHER", "MALFORMED_RESPONSE", "MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "SOMETHING_NEW"]) expect(geminiFinishMeaning(r)).toBe("ask_again");
    expect(geminiFinishMeaning("LANGUAGE")).toBe("give_up");
  });
  it("has a row per family", () => {
    expect(geminiCapabilityRows().map((r) => r.family.split(" ")[0])).toContain("gemini-2.5-pro");
  });
});

describe("reading Google error bodies", () => {
  const body = (status: string, details: unknown[], message = "m") => JSON.stringify({ error: { code: 429, message, status, details } });
  it("reads RetryInfo.retryDelay as ms", () => {
    expect(parseRetryDelay("28s")).toBe(28_000);
    expect(parseRetryDelay("0.250s")).toBe(250);
    expect(parseRetryDelay("soon")).toBeUndefined();
    expect(parseGoogleError(body("RESOURCE_EXHAUSTED", [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "2s" }]))?.retryDelayMs).toBe(2000);
  });
  it("tells a daily quota from a per-minute one", () => {
    const daily = parseGoogleError(body("RESOURCE_EXHAUSTED", [{ "@type": "type.googleapis.com/google.rpc.QuotaFailure", violations: [{ quotaId: "GenerateRequestsPerDayPerProjectPerModel-FreeTier" }] }]));
    const minute = parseGoogleError(body("RESOURCE_EXHAUSTED", [{ "@type": "type.googleapis.com/google.rpc.QuotaFailure", violations: [{ quotaId: "GenerateRequestsPerMinutePerProjectPerModel" }] }]));
    expect(meaningOfGoogleError(429, daily)).toBe("quota_exhausted");
    expect(meaningOfGoogleError(429, minute)).toBeUndefined();
    expect(isDailyQuota("generativelanguage.googleapis.com/generate_requests_per_model_per_day")).toBe(true);
  });
  it("reads a bad key, a parameter, a region", () => {
    expect(meaningOfGoogleError(400, parseGoogleError(body("INVALID_ARGUMENT", [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID" }])))).toBe("credentials");
    expect(meaningOfGoogleError(400, parseGoogleError(body("INVALID_ARGUMENT", [], "Thinking budget is not supported for this model.")))).toBe("unsupported_parameter");
    expect(meaningOfGoogleError(400, parseGoogleError(body("FAILED_PRECONDITION", [], "User location is not supported for the API use.")))).toBe("region_or_version");
    expect(meaningOfGoogleError(400, parseGoogleError(body("INVALID_ARGUMENT", [], "Request contains an invalid argument.")))).toBeUndefined();
    expect(parseGoogleError("not json")).toBeNull();
  });
});
