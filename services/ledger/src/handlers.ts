import type { z } from "zod";
import type { Msg, NatsConnection, Subscription } from "@nats-io/transport-node";
import { balanceOf, closedGet, windowRemaining, type AccountRateLimits, type LedgerCommand, type Rejection, type UsageSettled } from "@adrank/ledger-domain";
import { rejectionToRpcError } from "@adrank/ledger-client";
import { BalanceRequest, GrantRequest, ReserveRequest, SettleRequest, type BalanceView, type ReserveReply, type SettleReply } from "@adrank/bus-contracts";
import { decodeJson, encodeJson, type Topology } from "@adrank/messaging";
import type { RpcError, RpcReply } from "@adrank/bus-contracts";
import { extractTraceContext, inSpan, SpanKind } from "@adrank/telemetry";
import { ContentionError, type AccountStore, type Executed } from "./account-store.ts";
import type { LedgerLogger } from "./logger.ts";
import type { StreamGuard } from "./mirror/stream-guard.ts";

export interface RpcHandlers {
  /** Stops taking requests and resolves once every request in hand has been answered. */
  stop(): Promise<void>;
  inFlight(): number;
}

type Handler = (body: unknown) => Promise<RpcReply<unknown>>;

const badRequest = (message: string): RpcReply<never> => ({ ok: false, error: { code: "bad_request", message, details: { reason: message } } });
const rejected = (r: Rejection, extra?: Record<string, unknown>): RpcReply<never> => ({ ok: false, error: rejectionToRpcError(r, extra) });

function parse<T>(schema: z.ZodType<T>, body: unknown): { ok: true; value: T } | { ok: false; reply: RpcReply<never> } {
  const r = schema.safeParse(body);
  if (r.success) return { ok: true, value: r.data };
  return { ok: false, reply: badRequest(r.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ")) };
}

/**
 * Answers reserve / settle / grant / balance on the ledger's request subjects, in the ledger
 * queue group so that each request reaches one replica.
 */
export function startRpcHandlers(
  nc: NatsConnection,
  topo: Topology,
  store: AccountStore,
  logger: LedgerLogger,
  guard: Pick<StreamGuard, "problem">,
  accountRateLimits?: AccountRateLimits,
  /** Told of every settlement this replica decided (not of repeats): model spend metrics. */
  onSettled?: (event: UsageSettled) => void,
): RpcHandlers {
  const reserve: Handler = async (body) => {
    const req = parse(ReserveRequest, body);
    if (!req.ok) return req.reply;
    const { accountId, ...fields } = req.value;
    const command: LedgerCommand = { type: "ReserveUsage", ...fields };
    const r = await store.execute(accountId, command);
    if (!r.ok) return rejected(r.rejection);
    const value: ReserveReply = {
      reservationId: fields.reservationId,
      balance: balanceOf(r.snapshot.state).available,
      windowRemaining: windowRemaining(r.snapshot.state, fields.keyId, fields.kind, r.now, accountRateLimits),
    };
    return { ok: true, value };
  };

  const settle: Handler = async (body) => {
    const req = parse(SettleRequest, body);
    if (!req.ok) return req.reply;
    const { accountId, reservationId, unitsUsed, modelUsage } = req.value;
    const r: Executed = await store.execute(accountId, { type: "SettleUsage", reservationId, unitsUsed, ...(modelUsage ? { modelUsage } : {}) });
    const state = r.snapshot.state;
    if (!r.ok) {
      // The one place a repeated settle is decided: the same units again is the first
      // settlement's answer (a caller whose reply was lost asks again with the same ids);
      // other units stay the AlreadySettled refusal. The repeat's model usage is not recorded:
      // it describes the same request, already counted with the first settlement.
      const closed = r.rejection.type === "AlreadySettled" && r.rejection.unitsUsed === unitsUsed ? closedGet(state.closed, reservationId) : undefined;
      if (!closed) return rejected(r.rejection);
      const repeat: SettleReply = {
        reservationId,
        balance: balanceOf(state).available,
        creditsUsed: unitsUsed,
        windowRemaining: windowRemaining(state, closed.keyId, closed.kind, r.now, accountRateLimits),
        alreadySettled: true,
      };
      return { ok: true, value: repeat };
    }
    if (r.event.type !== "UsageSettled") throw new Error(`settle produced ${r.event.type}`);
    try {
      onSettled?.(r.event);
    } catch (err) {
      // Metrics must never fail a settlement that is already on the stream.
      logger.warn({ err, reservationId }, "could not record a settlement's model spend metrics");
    }
    const value: SettleReply = {
      reservationId,
      balance: balanceOf(state).available,
      creditsUsed: r.event.unitsUsed,
      windowRemaining: windowRemaining(state, r.event.keyId, r.event.kind, r.now, accountRateLimits),
      alreadySettled: false,
    };
    return { ok: true, value };
  };

  const grant: Handler = async (body) => {
    const req = parse(GrantRequest, body);
    if (!req.ok) return req.reply;
    const { accountId, ...fields } = req.value;
    const r = await store.execute(accountId, { type: "GrantCredits", ...fields });
    if (!r.ok) return rejected(r.rejection);
    const value: BalanceView = balanceOf(r.snapshot.state);
    return { ok: true, value };
  };

  const balance: Handler = async (body) => {
    const req = parse(BalanceRequest, body);
    if (!req.ok) return req.reply;
    const snapshot = await store.read(req.value.accountId);
    const value: BalanceView = balanceOf(snapshot.state);
    return { ok: true, value };
  };

  let inFlight = 0;
  const pending = new Set<Promise<void>>();

  const answer = async (op: string, handler: Handler, msg: Msg): Promise<void> => {
    let reply: RpcReply<unknown>;
    try {
      let body: unknown;
      try {
        body = decodeJson(msg.data);
      } catch {
        body = undefined;
      }
      const paused = guard.problem();
      reply = paused
        ? // A stream that is not the mirrored history would answer with wrong balances and take events that belong nowhere.
          { ok: false, error: { code: "unavailable", message: `billing is paused: ${paused}` } }
        : body === undefined
          ? badRequest("the request body is not JSON")
          : await inSpan(`ledger ${op}`, { kind: SpanKind.SERVER, parent: extractTraceContext(msg.headers), attributes: { "messaging.system": "nats", "messaging.destination.name": msg.subject } }, () => handler(body));
    } catch (err) {
      const contention = err instanceof ContentionError;
      logger[contention ? "warn" : "error"]({ err, op }, contention ? "ledger command lost every append race" : "ledger command failed");
      const error: RpcError = contention
        ? { code: "unavailable", message: "the account is busy: retry" }
        : { code: "internal", message: "the ledger could not process the request" };
      reply = { ok: false, error };
    }
    if (msg.reply) msg.respond(encodeJson(reply));
  };

  const subs: Subscription[] = (
    [
      [topo.ledgerRpc.reserve, "reserve", reserve],
      [topo.ledgerRpc.settle, "settle", settle],
      [topo.ledgerRpc.grant, "grant", grant],
      [topo.ledgerRpc.balance, "balance", balance],
    ] as const
  ).map(([subject, op, handler]) =>
    nc.subscribe(subject, {
      queue: topo.ledgerQueue,
      callback: (err, msg) => {
        if (err) {
          logger.error({ err, subject }, "ledger subscription failed");
          return;
        }
        inFlight++;
        const p = answer(op, handler, msg).finally(() => {
          inFlight--;
          pending.delete(p);
        });
        pending.add(p);
      },
    }),
  );

  return {
    async stop() {
      // Drain: the server stops routing to us, messages already delivered are still handled.
      await Promise.allSettled(subs.map((s) => s.drain()));
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    inFlight: () => inFlight,
  };
}
