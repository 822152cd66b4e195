import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { connectToNats, decodeJson, encodeJson, topology, type NatsConnection } from "@adrank/messaging";
import { MAX_SETTLE_MODEL_USAGE } from "@adrank/bus-contracts";
import { createLedgerClient, isLedgerUnavailable, LedgerUnavailableError, rejectionToRpcError } from "../src/index.ts";

const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";

/**
 * The client against real NATS. The far end is a scripted responder on the ledger's
 * subjects, so each transport outcome (silence, a lost reply, a malformed reply) can be
 * produced on purpose; the ledger service itself is tested in services/ledger.
 */
describe("ledger client over real NATS", () => {
  const topo = topology(`t${randomBytes(5).toString("hex")}`);
  let client: NatsConnection;
  let server: NatsConnection;
  const seen: Array<{ subject: string; body: unknown }> = [];
  let script: (subject: string, body: unknown, nth: number) => unknown | undefined = () => undefined;

  beforeAll(async () => {
    client = await connectToNats({ url: NATS_URL, name: "ledger-client-test" });
    server = await connectToNats({ url: NATS_URL, name: "ledger-client-test-responder" });
    for (const subject of Object.values(topo.ledgerRpc)) {
      server.subscribe(subject, {
        queue: topo.ledgerQueue,
        callback: (_err, msg) => {
          const body = decodeJson(msg.data);
          seen.push({ subject, body });
          const reply = script(subject, body, seen.filter((s) => s.subject === subject).length);
          if (reply !== undefined) msg.respond(typeof reply === "string" ? new TextEncoder().encode(reply) : encodeJson(reply));
        },
      });
    }
    await server.flush();
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });
  const reset = (s: typeof script) => {
    seen.length = 0;
    script = s;
  };

  it("throws LedgerUnavailableError naming the subject when no ledger listens", async () => {
    const other = topology(`t${randomBytes(5).toString("hex")}`);
    const ledger = createLedgerClient(client, other);
    const err = await ledger.balance({ accountId: "a1" }).catch((e: unknown) => e);
    expect(isLedgerUnavailable(err)).toBe(true);
    expect(err).toMatchObject({ reason: "no_responders", message: `no ledger service answered on ${other.ledgerRpc.balance}: is it running?` });
    expect((err as LedgerUnavailableError).cause).toBeInstanceOf(Error);
    expect((err as LedgerUnavailableError).isLedgerUnavailable()).toBe(true);
  });

  it("times out when the ledger does not answer", async () => {
    reset(() => undefined);
    const started = Date.now();
    const err = await createLedgerClient(client, topo, { timeoutMs: 200 })
      .reserve({ accountId: "a1", keyId: "k1", reservationId: "r1", kind: "scoring", units: 1 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LedgerUnavailableError);
    expect(err).toMatchObject({ reason: "timeout" });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(seen).toHaveLength(1); // reserve is never retried
  });

  it("never repeats a settle itself: a lost reply is a timeout for the caller to decide on", async () => {
    reset(() => undefined);
    const err = await createLedgerClient(client, topo, { timeoutMs: 200 })
      .settle({ accountId: "a1", reservationId: "r1", unitsUsed: 3 })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ reason: "timeout" });
    expect(seen.map((s) => s.body)).toEqual([{ accountId: "a1", reservationId: "r1", unitsUsed: 3 }]);
  });

  it("passes the ledger's answer to a repeated settle through: a repeat is success, other units a rejection", async () => {
    reset((_s, body) =>
      (body as { unitsUsed: number }).unitsUsed === 3
        ? { ok: true, value: { reservationId: "r1", balance: 7, creditsUsed: 3, windowRemaining: 57, alreadySettled: true } }
        : { ok: false, error: rejectionToRpcError({ type: "AlreadySettled", reservationId: "r1", unitsUsed: 3 }) },
    );
    const ledger = createLedgerClient(client, topo);
    expect(await ledger.settle({ accountId: "a1", reservationId: "r1", unitsUsed: 3 })).toEqual({
      ok: true,
      value: { reservationId: "r1", balance: 7, creditsUsed: 3, windowRemaining: 57, alreadySettled: true },
    });
    expect(await ledger.settle({ accountId: "a1", reservationId: "r1", unitsUsed: 2 })).toEqual({
      ok: false,
      rejection: { type: "AlreadySettled", reservationId: "r1", unitsUsed: 3 },
    });
  });

  it("sends the model usage with a settle, and refuses usage the ledger would refuse without sending it", async () => {
    reset(() => ({ ok: true, value: { reservationId: "r1", balance: 7, creditsUsed: 3, windowRemaining: 57, alreadySettled: false } }));
    const ledger = createLedgerClient(client, topo);
    const modelUsage = [
      { model: "openai:gpt-5-mini", calls: 6, inputTokens: 4_812, outputTokens: 310 },
      { model: "ollama:llava:13b", calls: 1, inputTokens: 0, outputTokens: 0 },
    ];
    expect(await ledger.settle({ accountId: "a1", reservationId: "r1", unitsUsed: 3, modelUsage })).toMatchObject({ ok: true, value: { creditsUsed: 3 } });
    expect(seen.map((s) => s.body)).toEqual([{ accountId: "a1", reservationId: "r1", unitsUsed: 3, modelUsage }]);

    reset(() => ({ ok: true, value: { reservationId: "r1", balance: 7, creditsUsed: 3, windowRemaining: 57, alreadySettled: false } }));
    const tooMany = Array.from({ length: MAX_SETTLE_MODEL_USAGE + 1 }, (_, i) => ({ model: `sim:m${i}`, calls: 1, inputTokens: 1, outputTokens: 1 }));
    for (const bad of [tooMany, [{ model: "gpt-5-mini", calls: 1, inputTokens: 1, outputTokens: 1 }], [{ model: "openai:gpt 5", calls: 1, inputTokens: 1, outputTokens: 1 }], [{ model: "sim:a", calls: 1, inputTokens: -1, outputTokens: 1 }]]) {
      expect(await ledger.settle({ accountId: "a1", reservationId: "r1", unitsUsed: 3, modelUsage: bad })).toMatchObject({ ok: false, rejection: { type: "InvalidCommand" } });
    }
    expect(seen).toEqual([]);
  });

  it("returns 429 material as a typed RateLimited rejection", async () => {
    reset(() => ({ ok: false, error: rejectionToRpcError({ type: "RateLimited", kind: "scoring", window: "account", limit: 180, retryAfter: 9, resetAt: 1_795_000_009, remaining: 2 }) }));
    const r = await createLedgerClient(client, topo).reserve({ accountId: "a1", keyId: "k1", reservationId: "r2", kind: "scoring", units: 4 });
    expect(r).toEqual({ ok: false, rejection: { type: "RateLimited", kind: "scoring", window: "account", limit: 180, retryAfter: 9, resetAt: 1_795_000_009, remaining: 2 } });
  });

  it("throws on an internal failure or a reply that breaks the contract", async () => {
    const ledger = createLedgerClient(client, topo);
    reset(() => ({ ok: false, error: { code: "internal", message: "the ledger could not process the request" } }));
    await expect(ledger.balance({ accountId: "a1" })).rejects.toMatchObject({ name: "LedgerUnavailableError", reason: "server_error" });
    reset(() => ({ ok: true, value: { available: "lots" } }));
    await expect(ledger.balance({ accountId: "a1" })).rejects.toMatchObject({ reason: "bad_reply" });
    reset(() => "not json");
    await expect(ledger.balance({ accountId: "a1" })).rejects.toMatchObject({ reason: "bad_reply" });
  });

  it("refuses a malformed request without sending it", async () => {
    reset(() => ({ ok: true, value: { available: 1, reserved: 0, granted: 1, used: 0 } }));
    const r = await createLedgerClient(client, topo).grant({ accountId: "acct.with.dots", grantId: "g1", credits: 5 });
    expect(r).toMatchObject({ ok: false, rejection: { type: "InvalidCommand" } });
    expect(seen).toEqual([]);
  });
});
