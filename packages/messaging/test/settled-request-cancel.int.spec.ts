import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { randomUUID } from "node:crypto";
import { MuxSubscription, RequestOne, TimeoutError } from "@nats-io/nats-core/internal";
import { connectToNats, type NatsConnection } from "../src/index.ts";
import { skipErrorOnSettledRequests } from "../src/settled-request-cancel.ts";

const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";

describe("requests once answered build no cancellation error", () => {
  it("settles an answered request without rejecting it again, and still leaves the multiplexer", () => {
    expect(skipErrorOnSettledRequests()).toBe(true);
    const mux = new MuxSubscription();
    const request = new RequestOne(mux, "svc.x", { timeout: 1_000 }, false);
    mux.add(request);
    const internals = request as unknown as { deferred: { reject(err: unknown): void } };
    const reject = vi.spyOn(internals.deferred, "reject");
    request.resolver(null, {} as never);
    expect(reject).not.toHaveBeenCalled();
    expect(mux.size()).toBe(0);
    // A cancel of a request nobody answered still rejects it, as the library does.
    const unanswered = new RequestOne(mux, "svc.y", { timeout: 1_000 }, false);
    mux.add(unanswered);
    const rejected = (unanswered as unknown as { deferred: Promise<unknown> }).deferred;
    unanswered.cancel();
    return expect(rejected).rejects.toThrow(/cancelled/);
  });

  describe("over real NATS", () => {
    let nc: NatsConnection;
    const subject = `settled-${randomUUID()}`;
    beforeAll(async () => {
      nc = await connectToNats({ url: NATS_URL, name: "settled-request-test" });
      nc.subscribe(subject, { callback: (_err, msg) => { msg.respond(msg.data); } });
      await nc.flush();
    });
    afterAll(() => nc.close());

    it("answers, times out and reports no responders as before", async () => {
      const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => nc.request(subject, String(i), { timeout: 5_000 })));
      expect(answers.map((m) => m.string())).toEqual(Array.from({ length: 200 }, (_, i) => String(i)));
      const muxOf = (c: NatsConnection) => (c as unknown as { protocol: { muxSubscriptions: MuxSubscription } }).protocol.muxSubscriptions;
      expect(muxOf(nc).size()).toBe(0);
      const silent = `silent-${randomUUID()}`;
      nc.subscribe(silent, { callback: () => {} });
      await expect(nc.request(silent, "x", { timeout: 200 })).rejects.toBeInstanceOf(TimeoutError);
      await expect(nc.request(`nobody-${randomUUID()}`, "x", { timeout: 2_000 })).rejects.toMatchObject({ message: expect.stringMatching(/no responders/i) });
      expect(muxOf(nc).size()).toBe(0);
    });
  });
});
