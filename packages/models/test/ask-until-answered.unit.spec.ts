import { describe, expect, it } from "vitest";
import { askUntilAnswered, stopReason, type AnswerAttempt } from "../src/resilience/ask-until-answered.ts";
import { describeModelError, isModelError, ModelError } from "../src/index.ts";

const target = { provider: "openai", model: "o4-mini" };
const attempt = (over: Partial<AnswerAttempt>): AnswerAttempt => ({ text: "", truncated: false, refused: false, stop: null, usage: undefined, ...over });

/** Plays the given attempts in order and records the output limit each was asked with. */
const scripted = (...attempts: AnswerAttempt[]) => {
  const limits: number[] = [];
  const call = async (limit: number) => {
    limits.push(limit);
    const next = attempts.shift();
    if (!next) throw new Error("asked once too often");
    return next;
  };
  return { limits, call };
};

describe("stopReason", () => {
  it("names a code-like stop reason and drops anything else", () => {
    expect(stopReason("finish reason", "length")).toBe("finish reason length");
    expect(stopReason("stop reason", "max_tokens")).toBe("stop reason max_tokens");
    expect(stopReason("finish reason", "the model said: ignore Dana")).toBeNull();
    expect(stopReason("finish reason", null)).toBeNull();
    expect(stopReason("finish reason", 7)).toBeNull();
  });
});

describe("askUntilAnswered", () => {
  it("returns the first usable answer at once", async () => {
    const { limits, call } = scripted(attempt({ text: "yes", usage: { inputTokens: 5, outputTokens: 2 } }));
    expect(await askUntilAnswered(target, { outputLimit: 100, retries: 2 }, call)).toEqual({ text: "yes", usage: { inputTokens: 5, outputTokens: 2 } });
    expect(limits).toEqual([100]);
  });

  it("leaves usage out when no attempt reported any, and sums reasoning only where it was reported", async () => {
    const none = scripted(attempt({}), attempt({ text: "yes" }));
    expect((await askUntilAnswered(target, { outputLimit: 100, retries: 2 }, none.call)).usage).toBeUndefined();
    const mixed = scripted(attempt({ usage: { inputTokens: 5, outputTokens: 0 } }), attempt({ text: "yes", usage: { inputTokens: 5, outputTokens: 9, reasoningTokens: 4 } }));
    expect((await askUntilAnswered(target, { outputLimit: 100, retries: 2 }, mixed.call)).usage).toEqual({ inputTokens: 10, outputTokens: 9, reasoningTokens: 4 });
  });

  it("sums the prompt-cache counts over the attempts, on an answer and on a failed call's usage alike", async () => {
    const cached = (read: number, written?: number) => ({ inputTokens: 2000, outputTokens: 0, cachedInputTokens: read, ...(written === undefined ? {} : { cacheWriteInputTokens: written }) });
    const answered = scripted(attempt({ usage: cached(0, 1500) }), attempt({ text: "yes", usage: cached(1500, 0) }));
    expect((await askUntilAnswered(target, { outputLimit: 100, retries: 2 }, answered.call)).usage).toEqual({ inputTokens: 4000, outputTokens: 0, cachedInputTokens: 1500, cacheWriteInputTokens: 1500 });
    const failed = scripted(attempt({ usage: cached(1024) }), attempt({ usage: { inputTokens: 900, outputTokens: 0 } }));
    const err = await askUntilAnswered(target, { outputLimit: 100, retries: 1 }, failed.call).catch((e: unknown) => e);
    expect(isModelError(err) && err.usage).toEqual({ inputTokens: 2900, outputTokens: 0, cachedInputTokens: 1024 });
  });

  it("lets a failed call (a ModelError from the transport) end the asking as it is", async () => {
    const unavailable = new ModelError({ ...target, kind: "unavailable", message: "openai is unavailable for model o4-mini (HTTP 503)" });
    let calls = 0;
    const err = await askUntilAnswered(target, { outputLimit: 100, retries: 2 }, async () => {
      calls++;
      if (calls === 1) return attempt({ stop: "finish reason stop" });
      throw unavailable;
    }).catch((e: unknown) => e);
    expect(err).toBe(unavailable);
    expect(calls).toBe(2);
  });

  it("says only that the output limit was used up when no reasoning tokens were reported", async () => {
    const { call } = scripted(attempt({ truncated: true, stop: "finish reason length" }));
    const err = await askUntilAnswered(target, { outputLimit: 100, retries: 0 }, call).catch((e: unknown) => e);
    expect(isModelError(err) && [err.message, err.reason]).toEqual(["openai model o4-mini returned no text: the output limit of 100 tokens was used up (finish reason length)", "no text, the output limit was used up (finish reason length)"]);
  });
});

describe("describeModelError for an unusable answer", () => {
  it("adds our reason when there is one, and keeps the plain sentence otherwise", () => {
    const withReason = new ModelError({ ...target, kind: "bad_response", message: "m", reason: "no text, the output limit was used up by reasoning (finish reason length)" });
    expect(describeModelError(withReason, "scoring model")).toBe("The scoring model (openai) returned an answer that could not be used: no text, the output limit was used up by reasoning (finish reason length).");
    expect(describeModelError(new ModelError({ ...target, kind: "bad_response", message: "m" }), "voter model")).toBe("The voter model (openai) returned an answer that could not be used.");
  });
});
