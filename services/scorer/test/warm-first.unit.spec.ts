import { describe, expect, it } from "vitest";
import { createSimEmbedder, createSimGenerator, ModelError, type GenerateRequest, type GenerateResult, type Generator } from "@adrank/models";
import { anchorSets } from "@adrank/ssr";
import type { ScoreJob } from "@adrank/bus-contracts";
import { createAnchorEmbeddings } from "../src/anchor-embeddings.ts";
import { evaluate, promptCacheWarmup } from "../src/evaluate.ts";
import { createPrefixWarmups, warmFirst } from "../src/warm-first.ts";
import { crispCreative } from "./images.ts";

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A run function whose calls wait until the test settles them, in the order they started. */
function controlled() {
  const started: string[] = [];
  const pending = new Map<string, { resolve: (v: string) => void; reject: (e: unknown) => void }>();
  const run = (s: { id: string }) =>
    new Promise<string>((resolve, reject) => {
      started.push(s.id);
      pending.set(s.id, { resolve, reject });
    });
  return { started, run, answer: (id: string) => pending.get(id)!.resolve(id), fail: (id: string, err: unknown) => pending.get(id)!.reject(err) };
}

describe("warmFirst", () => {
  it("starts one sample per group first and the rest of the group once it has answered; ungrouped samples at once", async () => {
    const c = controlled();
    const done = warmFirst(
      [
        { id: "a1", group: "a" },
        { id: "b1", group: null },
        { id: "a2", group: "a" },
        { id: "a3", group: "a" },
      ],
      c.run,
    );
    await tick();
    expect(c.started).toEqual(["a1", "b1"]);
    c.answer("a1");
    await tick();
    expect(c.started).toEqual(["a1", "b1", "a2", "a3"]);
    for (const id of ["b1", "a2", "a3"]) c.answer(id);
    expect(await done).toEqual(["a1", "b1", "a2", "a3"]);
  });

  it("does not start the rest of a group whose first sample failed, and throws that failure", async () => {
    const c = controlled();
    const done = warmFirst([{ id: "a1", group: "a" }, { id: "a2", group: "a" }], c.run);
    await tick();
    c.fail("a1", new Error("refused"));
    await expect(done).rejects.toThrow("refused");
    await tick();
    expect(c.started).toEqual(["a1"]);
  });

  it("lets the asset's other layer wait for a first call in flight, then start all its samples at once", async () => {
    const c = controlled();
    const prefixes = createPrefixWarmups();
    const layer1 = warmFirst([{ id: "x1", group: "g" }, { id: "x2", group: "g" }], c.run, prefixes);
    const layer2 = warmFirst([{ id: "y1", group: "g" }, { id: "y2", group: "g" }], c.run, prefixes);
    await tick();
    expect(c.started).toEqual(["x1"]);
    c.answer("x1");
    await tick();
    expect(c.started.slice(1).sort()).toEqual(["x2", "y1", "y2"]);
    for (const id of ["x2", "y1", "y2"]) c.answer(id);
    expect([await layer1, await layer2]).toEqual([["x1", "x2"], ["y1", "y2"]]);
    expect(prefixes.inFlight("g")).toBeUndefined();
  });

  it("when the other layer's first call fails, this layer warms its own first call", async () => {
    const c = controlled();
    const prefixes = createPrefixWarmups();
    const layer1 = warmFirst([{ id: "x1", group: "g" }, { id: "x2", group: "g" }], c.run, prefixes);
    const layer2 = warmFirst([{ id: "y1", group: "g" }, { id: "y2", group: "g" }], c.run, prefixes);
    await tick();
    c.fail("x1", new Error("x failed"));
    await expect(layer1).rejects.toThrow("x failed");
    await tick();
    expect(c.started).toEqual(["x1", "y1"]);
    c.answer("y1");
    await tick();
    c.answer("y2");
    expect(await layer2).toEqual(["y1", "y2"]);
  });
});

/** A sim generator that says its provider caches prompts, takes `ms` per call and records when each call ran. */
function cachingGenerator(model: string, ms: number, log: Array<{ model: string; start: number; end: number }>): Generator {
  const inner = createSimGenerator({ model });
  return {
    ...inner,
    cachesPrompts: true,
    async generate(req: GenerateRequest): Promise<GenerateResult> {
      const start = performance.now();
      await new Promise((resolve) => setTimeout(resolve, ms));
      const result = await inner.generate(req);
      log.push({ model, start, end: performance.now() });
      return result;
    },
  };
}

async function oneEvaluation(warmUp: boolean, ms: number, failFirst = false) {
  const bytes = await crispCreative();
  const log: Array<{ model: string; start: number; end: number }> = [];
  const a = cachingGenerator("sim-gen-a", ms, log);
  let failed = false;
  const flaky: Generator = {
    ...a,
    generate: async (req) => {
      if (failFirst && !failed) {
        failed = true;
        throw new ModelError({ kind: "bad_response", provider: "sim", model: "sim-gen-a", message: "no text" });
      }
      return a.generate(req);
    },
  };
  const generators = [flaky, cachingGenerator("sim-gen-b", ms, log)] as [Generator, Generator];
  const embedder = createSimEmbedder();
  const job: ScoreJob = {
    requestId: "5d0c7b1e-8f0a-4c1e-9a57-0f3b7e1c2d44",
    jobId: "j-warm",
    deadline: Date.now() + 60_000,
    layer: "image-only",
    image: { ref: "r".repeat(64), mime: "image/jpeg", width: 800, height: 800 },
    copy: null,
    persona: { audience: { name: "Trail runners", demographics: {} }, goal: "purchase-intent", assetType: "Social Media Post", platform: null, campaignType: null },
  };
  const started = performance.now();
  const evaluation = await evaluate(job, { generators, embedder, anchors: createAnchorEmbeddings(embedder, anchorSets), loadImage: async () => bytes, warmUp: promptCacheWarmup(generators, warmUp) }, AbortSignal.timeout(10_000));
  return { evaluation, log, ms: performance.now() - started };
}

describe("an evaluation on generators whose providers cache prompts", () => {
  it("with warm-up, starts each model's other samples only after its first has answered: about one sample's latency more", async () => {
    await oneEvaluation(false, 10); // loads and compiles the sim's code, so neither timing pays for it
    const off = await oneEvaluation(false, 150);
    const on = await oneEvaluation(true, 150);
    for (const model of ["sim-gen-a", "sim-gen-b"]) {
      const calls = on.log.filter((c) => c.model === model).sort((x, y) => x.start - y.start);
      expect(calls).toHaveLength(3);
      expect(calls[1]!.start).toBeGreaterThanOrEqual(calls[0]!.end - 1);
    }
    expect(Math.max(...off.log.map((c) => c.start)) - Math.min(...off.log.map((c) => c.start))).toBeLessThan(50);
    // The same answers either way: only the timing differs.
    expect(on.evaluation.score).toBe(off.evaluation.score);
    expect(on.ms - off.ms).toBeGreaterThan(100);
    console.log(`one evaluation at 150 ms per call: ${Math.round(off.ms)} ms with every sample at once, ${Math.round(on.ms)} ms with warm-up (+${Math.round(on.ms - off.ms)} ms)`);
  });

  it("keeps replacing a failed first sample, and its followers wait for the replacement", async () => {
    const { evaluation, log } = await oneEvaluation(true, 30, true);
    expect(evaluation.usage?.find((u) => u.model === "sim:sim-gen-a")?.calls).toBe(4);
    const calls = log.filter((c) => c.model === "sim-gen-a").sort((x, y) => x.start - y.start);
    expect(calls[1]!.start).toBeGreaterThanOrEqual(calls[0]!.end - 1);
  });
});
