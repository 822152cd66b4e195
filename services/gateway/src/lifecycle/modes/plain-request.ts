import type { FastifyReply, FastifyRequest } from "fastify";
import type { FinishedRequest, FinishedResponse } from "@adrank/db/repositories";
import { inSpan } from "@adrank/telemetry";
import { ClientLeftError } from "../../errors/api-errors.ts";
import { clientGoneSignal } from "../client-gone.ts";
import type { LifecycleContext } from "../context.ts";
import type { createGroupWriter } from "../group-writer.ts";
import { runMetered } from "../metered-run.ts";
import type { Operation, Prepared, WorkLogger } from "../operation.ts";
import { sendStored } from "../send-stored.ts";

/** Answers of plain requests, stored before they are sent: grouped under load. */
export type FinishedWriter = ReturnType<typeof createGroupWriter<{ request: FinishedRequest; response: FinishedResponse }>>;

/**
 * A synchronous request without an Idempotency-Key: no lease and no row while it runs, one
 * insert when it ends; a client that leaves stops the work, pays for what it set going, and
 * its request is stored as failed with a sentence saying so.
 */
export async function servePlain<Plan>(
  ctx: LifecycleContext,
  finished: FinishedWriter,
  operation: Operation<Plan>,
  prepared: Prepared<Plan>,
  request: FastifyRequest,
  reply: FastifyReply,
  traceparent: string | null,
): Promise<FastifyReply> {
  const caller = request.caller!;
  const log = request.log as WorkLogger;
  const requestId = request.id;
  const stored = { requestId, namespace: ctx.config.namespace, createdAt: new Date(request.receivedAt), accountId: caller.accountId, keyId: caller.keyId, operation: operation.name, fingerprint: "-", progressTotal: prepared.total };
  const result = await runMetered(ctx.metering, operation, prepared.plan, {
    requestId,
    runId: requestId,
    caller,
    units: prepared.units,
    fetches: prepared.fetches,
    receivedAt: request.receivedAt,
    clientGone: clientGoneSignal(reply),
    reservationId: requestId,
    onProgress: () => undefined,
    traceparent,
    log,
  }).catch(async (err: unknown) => {
    // Kept, so the request and what it was billed show in GET /api/v1/requests/{id} and the console's history.
    if (err instanceof ClientLeftError) await ctx.repo.recordFailed(stored, err.message).catch((e: unknown) => log.error({ err: e, requestId }, "storing a request whose client left failed"));
    throw err;
  });
  const response: FinishedResponse = { status: 200, headers: { "X-RateLimit-Remaining": String(result.rateLimitRemaining) }, body: JSON.stringify(result.body) };
  // A span of its own: with grouping, the wait for a write slot is part of storing.
  await inSpan("store answer", {}, () =>
    finished.write({
      request: stored,
      response,
    }),
  ).catch((err: unknown) => log.error({ err, requestId }, "storing the finished request failed; GET /api/v1/requests/{id} will not find it"));
  return sendStored(reply, response, requestId, { replayed: false });
}
