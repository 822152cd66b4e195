import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connectToNats, startJobWorker, startResultRouter, type JobWorker, type NatsConnection, type ResultRouter } from "@adrank/messaging";
import { VoteJob, type ImageRef, type PersonaInput, type VoteResult } from "@adrank/bus-contracts";
import { topology } from "@adrank/messaging";
import { openPanelSession, type PanelSide } from "../src/index.ts";

const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const silent = { info() {}, warn() {}, error() {} };

const image = (fill: string): ImageRef => ({ ref: fill.repeat(64), mime: "image/png", width: 100, height: 100 });
const persona: PersonaInput = {
  audience: { name: "Runners", demographics: {} },
  goal: "conversion-potential",
  assetType: "social-feed",
  platform: null,
  campaignType: null,
};
const A: PanelSide = { image: image("a"), copy: null };
const B: PanelSide = { image: image("b"), copy: { headline: "Run further" } };

/**
 * A voter that behaves like panel-voter on the wire: it answers by position only. How it
 * answers is decided per seat so the test can check the session maps positions back to sides.
 */
type Answer = (job: VoteJob) => VoteResult["outcome"] | "silent";

describe("panel session over real JetStream", () => {
  const topo = topology(`pc${randomUUID().slice(0, 8)}`);
  let nc: NatsConnection;
  let results: ResultRouter;
  let voterNc: NatsConnection;
  let worker: JobWorker;
  const seen: VoteJob[] = [];
  let answer: Answer = () => "silent";

  beforeAll(async () => {
    nc = await connectToNats({ url: NATS_URL, name: "panel-client-test" });
    results = startResultRouter(nc, topo, { log: silent });
    voterNc = await connectToNats({ url: NATS_URL, name: "panel-client-test-voter" });
    worker = await startJobWorker({
      nc: voterNc, topo, kind: "vote", service: "panel-voter", schema: VoteJob, concurrency: 5, ackWaitMs: 2_000, maxDeliver: 1, logger: silent, worker: "test",
      async handle(job, { signal }): Promise<VoteResult["outcome"]> {
        seen.push(job);
        const outcome = answer(job);
        if (outcome === "silent") {
          // Holds the job until the session gives up on it.
          return await new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
        }
        return outcome;
      },
      exhaustedError: "The voter failed.",
    });
  });

  afterAll(async () => {
    await worker.stop().catch(() => {});
    await voterNc.close().catch(() => {});
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(topo.streams.jobs.name).catch(() => {});
    await nc.drain();
  });

  const session = (requestId: string, stop: AbortSignal, deadlineMs = 10_000) =>
    openPanelSession({
      results, js: jetstream(nc), topo, requestId, deadline: Date.now() + deadlineMs, stop,
      stopReason: () => "The panel ran out of time.", traceparent: null, log: silent,
    });

  it("sends five blinded votes, 3 in order ab and 2 in ba, and maps each answer back to the side shown", async () => {
    seen.length = 0;
    // Every voter picks the image that carries copy, wherever it is shown: B must win 5 to 0.
    answer = (job) => ({ ok: true, model: "voter-model", response: "Image with copy", choice: job.copy[0] ? "first" : "second", simulated: true });
    const requestId = randomUUID();
    const s = session(requestId, new AbortController().signal);
    try {
      const run = await s.run("p0", persona, A, B);
      expect(run.model).toBe("voter-model");
      expect(run.votes.map((v) => v.order)).toEqual(["ab", "ba", "ab", "ba", "ab"]);
      expect(run.votes.map((v) => v.winner)).toEqual(["b", "b", "b", "b", "b"]);
      expect(run.votes.map((v) => v.voterId)).toEqual(["voter-1", "voter-2", "voter-3", "voter-4", "voter-5"]);
    } finally {
      s.close();
    }
    const mine = seen.filter((j) => j.requestId === requestId).sort((x, y) => x.seat - y.seat);
    expect(mine).toHaveLength(5);
    // The images travel in presentation order and nothing else names the assets.
    expect(mine.map((j) => j.images[0].ref[0])).toEqual(["a", "b", "a", "b", "a"]);
    for (const job of mine) expect(JSON.stringify(job)).not.toMatch(/asset_?id|"url"|score/i);
  });

  it("keeps an unreadable answer as an invalid vote with its raw response", async () => {
    answer = (job) =>
      job.seat === 2
        ? { ok: true, model: "voter-model", response: "Both are lovely.", choice: null, invalidReason: "the answer names no image", simulated: true }
        : { ok: true, model: "voter-model", response: "Image 1", choice: "first", simulated: true };
    const s = session(randomUUID(), new AbortController().signal);
    try {
      const run = await s.run("p0", persona, A, B);
      const invalid = run.votes[2]!;
      expect(invalid.winner).toBeNull();
      expect(invalid.response).toBe("Both are lovely.");
      expect(invalid.invalidReason).toBe("the answer names no image");
      // "first" is A when shown ab and B when shown ba.
      expect(run.votes.map((v) => v.winner)).toEqual(["a", "b", null, "b", "a"]);
    } finally {
      s.close();
    }
  });

  it("turns votes still unanswered when the session stops into invalid votes with the stop's sentence", async () => {
    answer = (job) => (job.seat < 3 ? { ok: true, model: "voter-model", response: "Image 2", choice: "second", simulated: true } : "silent");
    const stop = new AbortController();
    // A short deadline lets the held jobs end soon after the test.
    const s = session(randomUUID(), stop.signal, 1_500);
    const started = Date.now();
    setTimeout(() => stop.abort(), 600);
    try {
      const run = await s.run("p0", persona, A, B);
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(run.votes.slice(0, 3).map((v) => v.winner)).toEqual(["b", "a", "b"]);
      for (const v of run.votes.slice(3)) {
        expect(v.winner).toBeNull();
        expect(v.invalidReason).toBe("The panel ran out of time.");
      }
    } finally {
      s.close();
    }
  });
});
