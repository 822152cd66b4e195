import { describe, expect, it } from "vitest";
import { TOO_CLOSE_TO_CALL } from "@adrank/contracts";
import { aboveNextText, chanceText, modelSettingsText, rangeText, TOO_CLOSE, tooCloseSummary, winProbabilityText } from "./trust-words.ts";

describe("trust words", () => {
  it("keeps the too-close band the contract defines (copied so the bundle stays free of zod)", () => {
    expect(TOO_CLOSE).toEqual(TOO_CLOSE_TO_CALL);
  });

  it("says a probability in whole percent, never rounding one to a certainty", () => {
    expect(chanceText(0.714)).toBe("71 %");
    expect(chanceText(0.998)).toBe(">99 %");
    expect(chanceText(0.003)).toBe("<1 %");
    expect(chanceText(1)).toBe("100 %");
    expect(chanceText(0)).toBe("0 %");
    expect(rangeText(0.3588, 0.9567)).toBe("36–96 %");
    // 5 of 5 votes: the interval's top is 0.9958, not a certainty.
    expect(rangeText(0.5407, 0.9958)).toBe("54–99 %");
    expect(rangeText(0.004, 1)).toBe("1–100 %");
  });

  it("says how likely an image outranks the next, and nothing for the last or from an older server", () => {
    expect(aboveNextText(0.88, 1)).toBe("88 % chance it truly outranks #2");
    expect(aboveNextText(null, 3)).toBeNull();
    expect(aboveNextText(undefined, 1)).toBeNull();
  });

  it("counts the pairs too close to call only when there are some", () => {
    expect(tooCloseSummary({ repetition_noise_sd: 0.1, degrees_of_freedom: 6, adjacent_pairs: 2, too_close_to_call: 1 })).toBe("1 of 2 neighbouring pairs are too close to call (a 40 %–60 % chance of being in the right order).");
    expect(tooCloseSummary({ repetition_noise_sd: 0.1, degrees_of_freedom: 4, adjacent_pairs: 1, too_close_to_call: 1 })).toMatch(/^1 of 1 neighbouring pair is too close/);
    expect(tooCloseSummary({ repetition_noise_sd: 0.1, degrees_of_freedom: 6, adjacent_pairs: 2, too_close_to_call: 0 })).toBeNull();
    expect(tooCloseSummary(undefined)).toBeNull();
  });

  it("puts a panel's preference with its interval and the chance a majority prefers it", () => {
    expect(winProbabilityText({ asset_id: "summer.png", value: 0.7143, ci_low: 0.3588, ci_high: 0.9567, p_better: 0.8906 })).toBe(
      "summer.png preferred by 71 % of voters (95 % interval 36–96 %); 89 % chance a majority prefers it.",
    );
    expect(winProbabilityText(null)).toBeNull();
    expect(winProbabilityText(undefined)).toBeNull();
  });

  it("lists a model's reported versions and the settings sent, or says none were", () => {
    expect(modelSettingsText({ model: "openai:gpt-5-mini", versions: ["gpt-5-mini-2025-08-07"], temperature: 1, thinking: "reasoning_effort=low" })).toBe("reported gpt-5-mini-2025-08-07 · temperature 1 · thinking reasoning_effort=low");
    expect(modelSettingsText({ model: "bedrock:nova", versions: [], temperature: null, thinking: null })).toBe("no version reported · no temperature sent · no thinking control sent");
  });
});
