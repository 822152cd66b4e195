import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash, randomUUID } from "node:crypto";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connectToNats, decodeJson, encodeJson, HEADERS, openImageStore, topology, type NatsConnection } from "@adrank/messaging";
import { ScoreResult, type ScoreJob } from "@adrank/bus-contracts";
import { headers as natsHeaders } from "@nats-io/transport-node";
import { crispCreative, flatGrey } from "./images.ts";
import { startScorer, type ScorerProcess } from "./scorer-process.ts";

const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";

describe("scorer processes over real NATS", () => {
  const topo = topology(`t${randomUUID().slice(0, 8)}`);
  const env = { NATS_URL, ADRANK_NAMESPACE: topo.namespace, SCORER_ACK_WAIT_MS: "1500", SCORER_CONCURRENCY: "2" };
  let nc: NatsConnection;
  const processes: ScorerProcess[] = [];
  const images = new Map<string, { ref: string }>();

  const putImage = async (bytes: Uint8Array) => {
    const ref = createHash("sha256").update(bytes).digest("hex");
    await (await openImageStore(nc, topo)).put(ref, bytes);
    images.set(ref, { ref });
    return ref;
  };
  const job = (requestId: string, jobId: string, ref: string): ScoreJob => ({
    requestId, jobId, deadline: Date.now() + 60_000, layer: "image-only",
    image: { ref, mime: "image/jpeg", width: 800, height: 800 }, copy: null,
    persona: { audience: { name: "Runners", demographics: {} }, goal: "scroll-stopping", assetType: "Social Media Post", platform: "instagram", campaignType: null },
  });
  const publish = async (j: ScoreJob) => {
    const h = natsHeaders();
    h.set(HEADERS.requestId, j.requestId);
    h.set(HEADERS.jobId, j.jobId);
    h.set(HEADERS.deadline, String(j.deadline));
    await jetstream(nc).publish(topo.jobs.score, encodeJson(j), { msgID: j.jobId, headers: h });
  };
  /** Collects results until `count` arrive, then keeps listening `lingerMs` for duplicates. */
  const collect = (requestId: string, count: number, timeoutMs: number, lingerMs = 0) => {
    const sub = nc.subscribe(topo.resultsWildcard(requestId));
    const got: ScoreResult[] = [];
    return (async () => {
      const stopAt = setTimeout(() => sub.unsubscribe(), timeoutMs);
      for await (const m of sub) {
        got.push(ScoreResult.parse(decodeJson(m.data)));
        if (got.length === count) setTimeout(() => sub.unsubscribe(), lingerMs);
      }
      clearTimeout(stopAt);
      return got;
    })();
  };

  beforeAll(async () => {
    nc = await connectToNats({ url: NATS_URL, name: "scorer-int-test" });
  });
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop("SIGKILL")));
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(topo.streams.jobs.name).catch(() => {});
    await jsm.streams.delete(`OBJ_${topo.imageBucket}`).catch(() => {});
    await nc.drain();
  });

  it("answers every job with a scored evaluation, better images scoring higher", async () => {
    const scorer = await startScorer(env);
    processes.push(scorer);
    const [good, grey] = await Promise.all([crispCreative().then(putImage), flatGrey().then(putImage)]);
    const requestId = randomUUID();
    const results = collect(requestId, 2, 20_000);
    await publish(job(requestId, "good", good));
    await publish(job(requestId, "grey", grey));
    const got = await results;
    expect(got).toHaveLength(2);
    const byId = Object.fromEntries(got.map((r) => [r.jobId, r]));
    expect(byId.good!.outcome.ok && byId.grey!.outcome.ok).toBe(true);
    if (byId.good!.outcome.ok && byId.grey!.outcome.ok) {
      expect(byId.good!.outcome.evaluation.score).toBeGreaterThan(byId.grey!.outcome.evaluation.score);
      expect(byId.good!.outcome.evaluation.simulated).toBe(true);
    }
    await scorer.stop();
  }, 40_000);

  it("answers a job whose image expired with a per-asset error sentence", async () => {
    const scorer = await startScorer(env);
    processes.push(scorer);
    const requestId = randomUUID();
    const results = collect(requestId, 1, 15_000);
    await publish(job(requestId, "gone", "f".repeat(64)));
    const [result] = await results;
    expect(result!.outcome).toEqual({ ok: false, error: expect.stringMatching(/expired/) });
    await scorer.stop();
  }, 30_000);

  it("redelivers the job of a scorer killed mid-evaluation to another scorer, answered once", async () => {
    const slow = await startScorer({ ...env, SIM_LATENCY_MS: "6000" });
    processes.push(slow);
    const ref = await putImage(await crispCreative());
    const requestId = randomUUID();
    const results = collect(requestId, 1, 25_000, 3_000);
    await publish(job(requestId, "victim", ref));
    const jsm = await jetstreamManager(nc);
    await expect.poll(async () => (await jsm.consumers.info(topo.streams.jobs.name, topo.consumer("scorer"))).num_ack_pending, { timeout: 10_000 }).toBe(1);
    await slow.stop("SIGKILL");
    const survivor = await startScorer(env);
    processes.push(survivor);
    const got = await results;
    expect(got).toHaveLength(1);
    expect(got[0]!.jobId).toBe("victim");
    expect(got[0]!.worker).toMatch(new RegExp(`:${survivor.pid}$`));
    expect(got[0]!.outcome.ok).toBe(true);
    await survivor.stop();
  }, 45_000);
});
