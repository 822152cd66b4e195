import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { RequestOperation } from "@adrank/contracts";
import type { NewRequest } from "@adrank/db/repositories";
import { validTraceparent } from "../http/traceparent.ts";
import { BackgroundRuns } from "./background-runs.ts";
import type { LifecycleContext, LifecycleDeps } from "./context.ts";
import { fingerprintOf } from "./fingerprint.ts";
import { CONFIRM_WINDOW_MS } from "./metering.ts";
import { startSettlementRelay } from "./settlement-relay.ts";
import { createGroupWriter } from "./group-writer.ts";
import { idempotencyKeyOf } from "./idempotency-key-header.ts";
import { acceptAsync, acceptedBodyOf, vetWebhook } from "./modes/async-request.ts";
import { servePlain, type FinishedWriter } from "./modes/plain-request.ts";
import { claimRequest } from "./modes/stored-request.ts";
import { resumeAsync } from "./modes/takeover.ts";
import type { Operation, WorkLogger } from "./operation.ts";
import { runOwned } from "./owned-run.ts";
import { sendStored } from "./send-stored.ts";

/**
 * The life of every metered request, whatever its operation: plain (synchronous, no key),
 * keyed (an Idempotency-Key replays the first answer instead of running again),
 * asynchronous (202, run in the background or queued), and taken over (its gateway died).
 * Each is reserve → run → settle, then the answer is stored (GET /api/v1/requests/{id}) and
 * sent. An operation plugs in through `route` and never calls back.
 */
export function createRequestLifecycle(deps: LifecycleDeps) {
  const operations = new Map<RequestOperation, Operation<unknown>>();
  const ctx: LifecycleContext = {
    ...deps,
    owner: `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`,
    metering: {
      ledger: deps.ledger,
      ledgerTimeoutMs: deps.config.ledgerTimeoutMs,
      now: deps.now,
      cancelRun: deps.cancelRun,
      outbox: {
        async record(order) {
          await deps.settlements.record(
            { stream: deps.ledgerStream, reservationId: order.reservationId, requestId: order.requestId, accountId: order.accountId, unitsUsed: order.unitsUsed, modelUsage: order.modelUsage ?? null },
            CONFIRM_WINDOW_MS,
          );
          deps.onSettlement?.("pending");
        },
        finish: (reservationId, end) => deps.settlements.finish(deps.ledgerStream, reservationId, end),
      },
    },
    operationOf(name) {
      const operation = operations.get(name);
      if (!operation) throw new Error(`no operation registered for ${name}`);
      return operation;
    },
  };
  const background = new BackgroundRuns(ctx, (t) => resumeAsync(ctx, t));
  let relay: ReturnType<typeof startSettlementRelay> | null = null;
  const finished: FinishedWriter = createGroupWriter((items) => deps.repo.recordFinishedMany(items), { maxBatch: 100, maxInFlight: 2 });

  async function serve<Plan>(operation: Operation<Plan>, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const caller = request.caller!;
    const idempotencyKey = idempotencyKeyOf(request.headers);
    const prepared = await operation.prepare(request.body, caller);
    const traceparent = validTraceparent(request.headers.traceparent);
    const requestId = request.id;

    if (prepared.async && prepared.webhookUrl !== undefined) await vetWebhook(ctx, prepared.webhookUrl, caller.accountId);
    if (idempotencyKey === null && !prepared.async) return servePlain(ctx, finished, operation, prepared, request, reply, traceparent);

    // MAX_BACKGROUND_REQUESTS: an asynchronous request runs now only when this gateway has a
    // free slot, held from here until its run is tracked or it was refused; else it is stored
    // as queued and the sweep that finds a free slot (here or on another gateway) starts it.
    using slot = background.takeSlot(prepared.async);
    const queued = prepared.async && !slot.held;
    const acceptedBody = prepared.async ? acceptedBodyOf(requestId, operation.name, request.receivedAt, prepared, queued) : undefined;
    const row: NewRequest = {
      requestId,
      namespace: ctx.config.namespace,
      createdAt: new Date(request.receivedAt),
      accountId: caller.accountId,
      keyId: caller.keyId,
      operation: operation.name,
      mode: prepared.async ? "async" : "sync",
      fingerprint: fingerprintOf(operation.name, request.body),
      progressTotal: prepared.total,
      leaseOwner: ctx.owner,
      leaseMs: ctx.config.leaseMs,
      reservationId: requestId,
      ...(acceptedBody !== undefined ? { requestBody: JSON.stringify(request.body), acceptedBody } : {}),
      ...(prepared.webhookUrl !== undefined ? { webhookUrl: prepared.webhookUrl } : {}),
      ...(queued ? { queued: true } : {}),
    };
    if ((await claimRequest(ctx, operation, prepared, row, idempotencyKey, request, reply, traceparent)) === "answered") return reply;

    // Awaited, not returned: the slot is held until the run is tracked.
    if (acceptedBody !== undefined) return await acceptAsync(ctx, background, operation, prepared, { request, reply, acceptedBody, queued, traceparent });
    const log = request.log as WorkLogger;
    const response = await runOwned(ctx, operation, prepared, { requestId, runId: requestId, caller, receivedAt: request.receivedAt, reservationId: requestId, mode: "sync", traceparent, log });
    return sendStored(reply, response, requestId, { replayed: false });
  }

  return {
    owner: ctx.owner,

    /** Registers an operation (also to resume its stored requests) and returns its POST handler. */
    route<Plan>(operation: Operation<Plan>): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> {
      operations.set(operation.name, operation as Operation<unknown>);
      return (request, reply) => serve(operation, request, reply);
    },

    /** Starts the sweep for queued and abandoned asynchronous requests, the retention purge and the settlement relay. */
    start() {
      background.start();
      relay = startSettlementRelay({
        repo: deps.settlements,
        stream: deps.ledgerStream,
        ledger: deps.ledger,
        log: deps.log,
        intervalMs: deps.config.settlementRelayMs,
        ...(deps.onSettlement ? { onFinished: deps.onSettlement } : {}),
      });
    },

    /** Stops looking for new work and waits for the background runs in flight, then for the relay. */
    async close() {
      await background.close();
      await relay?.stop();
    },

    /** Background runs in flight (tests and metrics). */
    inFlight: () => background.size,
  };
}

export type RequestLifecycle = ReturnType<typeof createRequestLifecycle>;
