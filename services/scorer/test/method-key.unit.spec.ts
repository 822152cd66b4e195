import { describe, expect, it } from "vitest";
import { Evaluation, Presence } from "@adrank/bus-contracts";
import { methodKeyOf, type MethodKeyInput } from "../src/method-key.ts";

const base: MethodKeyInput = {
  methodVersion: "2026-11-25",
  promptHash: "0123456789abcdef",
  generators: [
    { model: "openai:gpt-5-mini", temperature: 0.5, thinking: null },
    { model: "gemini:gemini-2.5-flash", temperature: 1, thinking: "thinkingBudget=512" },
  ],
  embedder: "openai:text-embedding-3-small",
  similarityLimit: 0.65,
};

describe("the scorer's method key", () => {
  it("is the same for the same method, and 16 hex digits", () => {
    expect(methodKeyOf(base)).toBe(methodKeyOf(structuredClone(base)));
    expect(methodKeyOf(base)).toMatch(/^[a-f0-9]{16}$/);
  });

  it("changes with every part that makes the scorer's answer", () => {
    const [a, b] = base.generators;
    const changed: MethodKeyInput[] = [
      { ...base, methodVersion: "2026-12-01" },
      { ...base, promptHash: "fedcba9876543210" },
      { ...base, generators: [{ ...a!, model: "openai:gpt-5" }, b!] },
      { ...base, generators: [{ ...a!, temperature: 0.7 }, b!] },
      { ...base, generators: [a!, { ...b!, thinking: null }] },
      { ...base, generators: [b!, a!] },
      { ...base, embedder: "gemini:gemini-embedding-001" },
      { ...base, similarityLimit: 0.7 },
    ];
    const keys = new Set([methodKeyOf(base), ...changed.map(methodKeyOf)]);
    expect(keys.size).toBe(changed.length + 1);
  });

  it("travels on an evaluation and a presence answer, and is optional on both (older scorers)", () => {
    const key = methodKeyOf(base);
    expect(Presence.parse({ service: "scorer", worker: "w1", methodKey: key }).methodKey).toBe(key);
    expect(Presence.parse({ service: "scorer", worker: "w1" }).methodKey).toBeUndefined();
    expect(Presence.safeParse({ service: "scorer", worker: "w1", methodKey: "not a key" }).success).toBe(false);
    expect(Evaluation.shape.methodKey.safeParse(undefined).success).toBe(true);
    expect(Evaluation.shape.methodKey.safeParse(key).success).toBe(true);
  });
});
