import type { z } from "zod";
import { headers } from "@nats-io/transport-node";
import { injectTraceContext, inSpan, SpanKind } from "@adrank/telemetry";
import { decodeJson, encodeJson, type NatsConnection, type Topology } from "@adrank/messaging";
import type { Rejection } from "@adrank/ledger-domain";
import { LedgerUnavailableError, unavailableFromTransport } from "./errors.ts";
import { BalanceRequest, BalanceView, GrantRequest, ReserveReply, ReserveRequest, rpcReply, SettleReply, SettleRequest, type RpcError } from "@adrank/bus-contracts";
import { rpcErrorToRejection } from "./rejection-codes.ts";

/** A command's outcome: the reply, or the typed reason it changed nothing. */
export type LedgerResult<T> = { ok: true; value: T } | { ok: false; rejection: Rejection };

export interface LedgerClientOptions {
  /** Per request; the client never retries: the caller decides (the gateway's metered request repeats a settle). Default 2000. */
  timeoutMs?: number;
}

export interface LedgerClient {
  /**
   * Holds `units` credits and window units for one request, and counts it with its `fetches`
   * (image URLs it makes the gateway fetch) in the account's request and fetch windows, which
   * no settle gives back (402 / 429 come back as rejections).
   */
  reserve(req: ReserveRequest): Promise<LedgerResult<ReserveReply>>;
  /**
   * Charges `unitsUsed` of a reservation and releases the rest, and records `modelUsage` (calls
   * and tokens per model; at most MAX_SETTLE_MODEL_USAGE entries) for cost accounting. Safe to
   * repeat with the same units: the ledger answers a repeat like the first (`alreadySettled`)
   * and keeps the first settle's model usage.
   */
  settle(req: SettleRequest): Promise<LedgerResult<SettleReply>>;
  grant(req: GrantRequest): Promise<LedgerResult<BalanceView>>;
  balance(req: BalanceRequest): Promise<LedgerResult<BalanceView>>;
}

/**
 * The ledger's request-reply client. Rejections are returned as values; a ledger that cannot
 * answer throws LedgerUnavailableError.
 *
 * @example
 * const ledger = createLedgerClient(nc, topology(ns));
 * const r = await ledger.reserve({ accountId, keyId, reservationId: requestId, kind: "scoring", units: 4, fetches: 4 });
 * if (!r.ok && r.rejection.type === "RateLimited") reply.header("Retry-After", String(r.rejection.retryAfter));
 */
export function createLedgerClient(nc: Pick<NatsConnection, "request">, topo: Topology, { timeoutMs = 2_000 }: LedgerClientOptions = {}): LedgerClient {
  // Built once: a zod schema compiles itself on first use, which is slow to repeat per call.
  const envelopes = new Map<z.ZodType, z.ZodType>();
  const envelopeOf = (value: z.ZodType) => {
    let e = envelopes.get(value);
    if (!e) envelopes.set(value, (e = rpcReply(value)));
    return e;
  };

  async function call<Req, Res>(subject: string, schema: z.ZodType<Req>, reply: z.ZodType<Res>, req: Req): Promise<LedgerResult<Res>> {
    const parsed = schema.safeParse(req);
    if (!parsed.success) {
      const reason = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
      return { ok: false, rejection: { type: "InvalidCommand", reason } };
    }
    let raw: unknown;
    try {
      const msg = await inSpan(`ledger ${subject.slice(subject.lastIndexOf(".") + 1)}`, { kind: SpanKind.CLIENT, attributes: { "messaging.system": "nats", "messaging.destination.name": subject } }, () => {
        const h = headers();
        injectTraceContext(h);
        return nc.request(subject, encodeJson(parsed.data), { timeout: timeoutMs, headers: h });
      });
      raw = decodeJson(msg.data);
    } catch (err) {
      if (err instanceof SyntaxError) throw new LedgerUnavailableError("bad_reply", subject, `the ledger's reply on ${subject} is not JSON`, { cause: err });
      throw unavailableFromTransport(err, subject);
    }
    const envelope = envelopeOf(reply).safeParse(raw);
    if (!envelope.success) throw new LedgerUnavailableError("bad_reply", subject, `the ledger's reply on ${subject} does not match the contract`, { cause: envelope.error });
    const body = envelope.data as { ok: true; value: Res } | { ok: false; error: RpcError };
    if (body.ok) return { ok: true, value: body.value };
    let rejection: Rejection | null;
    try {
      rejection = rpcErrorToRejection(body.error);
    } catch (cause) {
      throw new LedgerUnavailableError("bad_reply", subject, `the ledger's ${body.error.code} answer on ${subject} has malformed details`, { cause });
    }
    if (!rejection) throw new LedgerUnavailableError("server_error", subject, `the ledger failed (${body.error.code}): ${body.error.message}`, { cause: body.error });
    return { ok: false, rejection };
  }

  return {
    reserve: (req) => call(topo.ledgerRpc.reserve, ReserveRequest, ReserveReply, req),
    settle: (req) => call(topo.ledgerRpc.settle, SettleRequest, SettleReply, req),
    grant: (req) => call(topo.ledgerRpc.grant, GrantRequest, BalanceView, req),
    balance: (req) => call(topo.ledgerRpc.balance, BalanceRequest, BalanceView, req),
  };
}
