import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectToNats, encodeJson, startResultRouter, topology, type NatsConnection, type ResultRouter } from "@adrank/messaging";
import type { ScoreResult } from "@adrank/bus-contracts";
import { openScoreResults } from "../src/operations/rank/score-results.ts";
import { evaluationFixture } from "@adrank/bus-contracts/testing";

const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const topo = topology(`t${randomBytes(5).toString("hex")}`);
const quiet = { warn: () => {} };
let nc: NatsConnection;
let router: ResultRouter;

beforeAll(async () => {
  nc = await connectToNats({ url: NATS_URL, name: "result-join-test" });
  router = startResultRouter(nc, topo, { log: quiet });
});
afterAll(async () => {
  router.close();
  await nc.close();
});

const result = (requestId: string, jobId: string, score: number | null): ScoreResult => ({
  requestId,
  jobId,
  worker: "test",
  outcome: score === null ? { ok: false, error: "The scoring model refused this image or text." } : { ok: true, evaluation: evaluationFixture(score) },
});

describe("openScoreResults", () => {
  it("resolves each job with its first result and ignores a redelivery's second one", async () => {
    const requestId = randomUUID();
    const join = openScoreResults(router, new AbortController().signal, () => "stopped", quiet);
    const a = join.expect(`${requestId}_a`);
    const b = join.expect(`${requestId}_b`);
    nc.publish(join.replyTo(`${requestId}_a`), encodeJson(result(requestId, `${requestId}_a`, 3.5)));
    nc.publish(join.replyTo(`${requestId}_a`), encodeJson(result(requestId, `${requestId}_a`, 1.5)));
    nc.publish(join.replyTo(`${requestId}_b`), Buffer.from("not json"));
    nc.publish(join.replyTo(`${requestId}_b`), encodeJson(result(requestId, `${requestId}_b`, null)));
    await expect(a).resolves.toMatchObject({ ok: true, evaluation: { score: 3.5 } });
    await expect(b).resolves.toEqual({ ok: false, error: "The scoring model refused this image or text." });
    join.close();
  });

  it("answers every job still waiting with the stop sentence when the signal fires", async () => {
    const requestId = randomUUID();
    const stop = new AbortController();
    const join = openScoreResults(router, stop.signal, () => "The asset was not scored in time.", quiet);
    const pending = join.expect(`${requestId}_slow`);
    stop.abort();
    await expect(pending).resolves.toEqual({ ok: false, error: "The asset was not scored in time." });
    await expect(join.expect(`${requestId}_late`)).resolves.toEqual({ ok: false, error: "The asset was not scored in time." });
    join.close();
  });

  it("hears a result a worker older than replyTo publishes on the request's subject", async () => {
    const requestId = randomUUID();
    const join = openScoreResults(router, new AbortController().signal, () => "stopped", quiet);
    const pending = join.expect(`${requestId}_old`);
    nc.publish(topo.result(requestId, `${requestId}_old`), encodeJson(result(requestId, `${requestId}_old`, 2.5)));
    await expect(pending).resolves.toMatchObject({ ok: true, evaluation: { score: 2.5 } });
    join.close();
  });

  it("does not see results of another job", async () => {
    const requestId = randomUUID();
    const other = randomUUID();
    const stop = new AbortController();
    const join = openScoreResults(router, stop.signal, () => "stopped", quiet);
    const pending = join.expect(`${requestId}_x`);
    nc.publish(topo.routedResult("another-gateway", `${requestId}_x`), encodeJson(result(requestId, `${requestId}_x`, 4)));
    nc.publish(join.replyTo(`${other}_x`), encodeJson(result(other, `${other}_x`, 4)));
    await nc.flush();
    await new Promise((r) => setTimeout(r, 50));
    stop.abort();
    await expect(pending).resolves.toEqual({ ok: false, error: "stopped" });
    join.close();
  });
});
