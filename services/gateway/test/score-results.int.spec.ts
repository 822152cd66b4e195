import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectToNats, encodeJson, topology, type NatsConnection } from "@adrank/messaging";
import type { ScoreResult } from "@adrank/bus-contracts";
import { openScoreResults } from "../src/operations/rank/score-results.ts";
import { evaluationFixture } from "@adrank/bus-contracts/testing";

const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const topo = topology(`t${randomBytes(5).toString("hex")}`);
const quiet = { warn: () => {} };
let nc: NatsConnection;

beforeAll(async () => {
  nc = await connectToNats({ url: NATS_URL, name: "result-join-test" });
});
afterAll(async () => {
  await nc.close();
});

const result = (requestId: string, jobId: string, score: number | null): ScoreResult => ({
  requestId,
  jobId,
  worker: "test",
  outcome: score === null ? { ok: false, error: "The scoring model refused this image or text." } : { ok: true, evaluation: evaluationFixture(score) },
});

describe("openResultJoin", () => {
  it("resolves each job with its first result and ignores a redelivery's second one", async () => {
    const requestId = randomUUID();
    const join = openScoreResults(nc, topo, requestId, new AbortController().signal, () => "stopped", quiet);
    const a = join.expect("job-a");
    const b = join.expect("job-b");
    nc.publish(topo.result(requestId, "job-a"), encodeJson(result(requestId, "job-a", 3.5)));
    nc.publish(topo.result(requestId, "job-a"), encodeJson(result(requestId, "job-a", 1.5)));
    nc.publish(topo.result(requestId, "job-b"), Buffer.from("not json"));
    nc.publish(topo.result(requestId, "job-b"), encodeJson(result(requestId, "job-b", null)));
    await expect(a).resolves.toMatchObject({ ok: true, evaluation: { score: 3.5 } });
    await expect(b).resolves.toEqual({ ok: false, error: "The scoring model refused this image or text." });
    join.close();
  });

  it("answers every job still waiting with the stop sentence when the signal fires", async () => {
    const requestId = randomUUID();
    const stop = new AbortController();
    const join = openScoreResults(nc, topo, requestId, stop.signal, () => "The asset was not scored in time.", quiet);
    const pending = join.expect("job-slow");
    stop.abort();
    await expect(pending).resolves.toEqual({ ok: false, error: "The asset was not scored in time." });
    await expect(join.expect("job-late")).resolves.toEqual({ ok: false, error: "The asset was not scored in time." });
    join.close();
  });

  it("does not see results of another request", async () => {
    const requestId = randomUUID();
    const other = randomUUID();
    const stop = new AbortController();
    const join = openScoreResults(nc, topo, requestId, stop.signal, () => "stopped", quiet);
    const pending = join.expect("job-x");
    nc.publish(topo.result(other, "job-x"), encodeJson(result(other, "job-x", 4)));
    await nc.flush();
    await new Promise((r) => setTimeout(r, 50));
    stop.abort();
    await expect(pending).resolves.toEqual({ ok: false, error: "stopped" });
    join.close();
  });
});
