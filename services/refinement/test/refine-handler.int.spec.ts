import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { headers } from "@nats-io/transport-node";
import { connectToNats, startJobWorker, startResultRouter, topology, type JobWorker, type NatsConnection, type ResultRouter } from "@adrank/messaging";
import { RefineResult, VoteJob, type PersonaInput, type RefineAsset, type RefineJob, type VoteResult } from "@adrank/bus-contracts";
import { createRefineHandler } from "../src/index.ts";

const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const silent = { info() {}, warn() {}, error() {} };
const persona: PersonaInput = { audience: { name: "Runners", demographics: {} }, goal: "click-through-rate", assetType: "Advertisement", platform: null, campaignType: null };
const asset = (key: number, score: number, fill: string): RefineAsset => ({ key, id: `asset-${key}`, score, assetType: "Advertisement", image: { ref: fill.repeat(64), mime: "image/png", width: 96, height: 96 }, copy: null });

/**
 * The refinement service's handler over real JetStream, with a stand-in panel-voter that
 * prefers whichever image shows the asset `favourite` (it learns which from the image ref,
 * as a model would from the picture). Nothing here knows the assets' scores.
 */
describe("refinement handler", () => {
  const topo = topology(`rf${randomUUID().slice(0, 8)}`);
  let nc: NatsConnection;
  let results: ResultRouter;
  let voterNc: NatsConnection;
  let voter: JobWorker;
  let favourite = "b";
  let answering = true;

  beforeAll(async () => {
    nc = await connectToNats({ url: NATS_URL, name: "refinement-test" });
    results = startResultRouter(nc, topo, { log: silent });
    voterNc = await connectToNats({ url: NATS_URL, name: "refinement-test-voter" });
    voter = await startJobWorker({
      nc: voterNc, topo, kind: "vote", service: "panel-voter", schema: VoteJob, concurrency: 10, ackWaitMs: 2_000, maxDeliver: 1, logger: silent, worker: "test-voter",
      async handle(job, { signal }): Promise<VoteResult["outcome"]> {
        if (!answering) return await new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
        const first = job.images[0].ref.startsWith(favourite);
        return { ok: true, model: "test:voter", response: `WINNER: ${first ? 1 : 2}`, choice: first ? "first" : "second", simulated: true };
      },
      exhaustedError: "The voter failed.",
    });
  });

  afterAll(async () => {
    await voter.stop().catch(() => {});
    await voterNc.close().catch(() => {});
    await (await jetstreamManager(nc)).streams.delete(topo.streams.jobs.name).catch(() => {});
    await nc.drain();
  });

  const refine = (assets: RefineAsset[], deadlineMs: number) => {
    const job: RefineJob = { requestId: randomUUID(), jobId: "x_refine", deadline: Date.now() + deadlineMs, persona, assets };
    const handle = createRefineHandler({ results, js: jetstream(nc), topo, log: silent });
    const signal = AbortSignal.timeout(deadlineMs);
    return handle(job, { signal, deliveryCount: 1, headers: headers() });
  };

  it("runs a panel on the close pair, swaps the scores the panel reversed, and reports a typed result", async () => {
    favourite = "b";
    answering = true;
    const outcome = await refine([asset(0, 3.4, "a"), asset(1, 3.3, "b"), asset(2, 2.0, "c")], 10_000);
    expect(RefineResult.shape.outcome.safeParse(outcome).success).toBe(true);
    if (!outcome.ok) throw new Error(outcome.error);
    const { report } = outcome;
    expect(report.pairsEvaluated).toBe(1);
    expect(report.scores).toEqual(expect.arrayContaining([{ key: 0, score: 3.3 }, { key: 1, score: 3.4 }, { key: 2, score: 2.0 }]));
    expect(report.outcomes.map((o) => o.panelOutcome)).toEqual([
      expect.objectContaining({ winnerAssetId: "asset-1", loserAssetId: "asset-0", flipped: true, votesFor: 5, votesTotal: 5 }),
      expect.objectContaining({ winnerAssetId: "asset-1", loserAssetId: "asset-0", flipped: true }),
    ]);
    const [result] = report.results;
    expect(result).toMatchObject({ aId: "asset-0", bId: "asset-1", status: "done", winnerId: "asset-1", rawScores: { a: 3.4, b: 3.3 }, flipped: true, model: "test:voter" });
    expect(result!.votes.map((v) => v.order)).toEqual(["ab", "ba", "ab", "ba", "ab"]);
  });

  it("leaves the scores raw when no vote is cast before the deadline, and says why in the result", async () => {
    answering = false;
    const outcome = await refine([asset(0, 3.4, "a"), asset(1, 3.3, "b")], 1_500);
    if (!outcome.ok) throw new Error(outcome.error);
    expect(outcome.report.scores).toEqual(expect.arrayContaining([{ key: 0, score: 3.4 }, { key: 1, score: 3.3 }]));
    expect(outcome.report.outcomes).toEqual([]);
    expect(outcome.report.results[0]).toMatchObject({ status: "error", votesTotal: 0, flipped: false });
    expect(outcome.report.results[0]!.error).toMatch(/No valid vote was cast/);
  });
});
