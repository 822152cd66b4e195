import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { randomUUID } from "node:crypto";
import { connectToNats, encodeJson, openResultJoin, startResultRouter, topology, type NatsConnection, type ResultRouter } from "../src/index.ts";

const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const quiet = { warn() {} };

/** A join whose outcome is the result's `n`, or "stopped"; `decode` is a spy so a test can tell what was decoded. */
const joinOn = (router: ResultRouter, stop: AbortSignal) => {
  const decode = vi.fn((payload: unknown) => {
    const n = (payload as { n?: unknown }).n;
    if (typeof n !== "number") throw new Error("no n");
    return n;
  });
  return { decode, join: openResultJoin<number | "stopped">(router, { stop, onStop: () => "stopped", decode, log: quiet }) };
};

describe("result router over real NATS", () => {
  const topo = topology(`rr${randomUUID().slice(0, 8)}`);
  let nc: NatsConnection;
  let router: ResultRouter;

  beforeAll(async () => {
    nc = await connectToNats({ url: NATS_URL, name: "result-router-test" });
    router = startResultRouter(nc, topo, { log: quiet });
  });
  afterAll(async () => {
    router.close();
    await nc.close();
  });

  it("hands the results of many joins, arriving in any order, on one subscription to the right waits", async () => {
    const never = new AbortController().signal;
    const joins = Array.from({ length: 5 }, () => ({ requestId: randomUUID(), ...joinOn(router, never) }));
    const waits = joins.flatMap(({ requestId, join }, j) => Array.from({ length: 20 }, (_, k) => ({ jobId: `${requestId}_${k}`, want: j * 100 + k, got: join.expect(`${requestId}_${k}`), join })));
    expect(router.waiting()).toBe(100);
    for (const w of [...waits].reverse()) nc.publish(w.join.replyTo(w.jobId), encodeJson({ n: w.want }));
    expect(await Promise.all(waits.map((w) => w.got))).toEqual(waits.map((w) => w.want));
    expect(router.waiting()).toBe(0);
    for (const { join } of joins) join.close();
  });

  it("keeps the first valid result per job, skips a malformed one and ignores a redelivery's second answer", async () => {
    const requestId = randomUUID();
    const { join, decode } = joinOn(router, new AbortController().signal);
    const got = join.expect(`${requestId}_a`);
    nc.publish(join.replyTo(`${requestId}_a`), Buffer.from("not json"));
    nc.publish(join.replyTo(`${requestId}_a`), encodeJson({ nothing: true }));
    nc.publish(join.replyTo(`${requestId}_a`), encodeJson({ n: 1 }));
    nc.publish(join.replyTo(`${requestId}_a`), encodeJson({ n: 2 }));
    await expect(got).resolves.toBe(1);
    await nc.flush();
    await new Promise((r) => setTimeout(r, 30));
    // The malformed JSON never reaches decode; the shapeless one fails it; the second answer is not decoded.
    expect(decode.mock.calls).toEqual([[{ nothing: true }], [{ n: 1 }]]);
    join.close();
  });

  it("does not decode a result for a job nobody waits for", async () => {
    const requestId = randomUUID();
    const stop = new AbortController();
    const { join, decode } = joinOn(router, stop.signal);
    const got = join.expect(`${requestId}_mine`);
    nc.publish(router.replyTo(`${requestId}_other`), encodeJson({ n: 7 }));
    nc.publish(topo.result(requestId, `${requestId}_other`), encodeJson({ n: 7 }));
    nc.publish(topo.routedResult("another-router", `${requestId}_mine`), encodeJson({ n: 7 }));
    await nc.flush();
    await new Promise((r) => setTimeout(r, 30));
    expect(decode).not.toHaveBeenCalled();
    stop.abort();
    await expect(got).resolves.toBe("stopped");
    join.close();
  });

  it("ends every wait when the stop fires or the join closes, and forgets its jobs", async () => {
    const requestId = randomUUID();
    const stop = new AbortController();
    const first = joinOn(router, stop.signal);
    const second = joinOn(router, new AbortController().signal);
    const a = first.join.expect(`${requestId}_a`);
    const b = second.join.expect(`${requestId}_b`);
    expect(router.waiting()).toBe(2);
    stop.abort();
    await expect(a).resolves.toBe("stopped");
    await expect(first.join.expect(`${requestId}_late`)).resolves.toBe("stopped");
    second.join.close();
    await expect(b).resolves.toBe("stopped");
    expect(router.waiting()).toBe(0);
    first.join.close();
  });

  it("hears a result published on the per-request subject, for a worker older than replyTo", async () => {
    const requestId = randomUUID();
    const { join } = joinOn(router, new AbortController().signal);
    const got = join.expect(`${requestId}_old`);
    nc.publish(topo.result(requestId, `${requestId}_old`), encodeJson({ n: 5 }));
    await expect(got).resolves.toBe(5);
    join.close();
  });

  it("names its reply subjects from its id and refuses a job id that would widen them", () => {
    const named = startResultRouter(nc, topo, { log: quiet, id: "gw-7" });
    try {
      expect(named.replyTo("r-1_0_full")).toBe(topo.routedResult("gw-7", "r-1_0_full"));
      expect(() => named.replyTo("r-1.*")).toThrow(/subject token/);
    } finally {
      named.close();
    }
  });

  it("refuses to wait for one job twice", () => {
    const requestId = randomUUID();
    const { join } = joinOn(router, new AbortController().signal);
    void join.expect(`${requestId}_a`);
    expect(() => router.route(`${requestId}_a`, () => true)).toThrow(/twice/);
    join.close();
  });
});
