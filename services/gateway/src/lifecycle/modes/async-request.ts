import type { FastifyReply, FastifyRequest } from "fastify";
import type { RequestOperation } from "@adrank/contracts";
import { BodyValidationError } from "../../errors/api-errors.ts";
import { refuseWhenPendingCapReached } from "../../webhooks/pending-cap.ts";
import type { BackgroundRuns } from "../background-runs.ts";
import type { LifecycleContext } from "../context.ts";
import { reserveUsage } from "../metering.ts";
import type { Operation, Prepared, WorkLogger } from "../operation.ts";
import { runOwned } from "../owned-run.ts";
import { requestStatusOf, resultUrlOf } from "../request-status.ts";

/** Refuses a webhook_url that cannot be used (400/422) or an account with too many deliveries waiting (429), before anything is stored. */
export async function vetWebhook(ctx: LifecycleContext, url: string, accountId: string): Promise<void> {
  const problem = await ctx.checkWebhookUrl(url);
  if (problem) throw new BodyValidationError(problem, "webhook_url");
  if (!(await ctx.webhooks.hasSecret(accountId))) {
    throw new BodyValidationError("webhook_url needs a webhook signing secret, and this account has none yet: create one in the console (Webhooks), then send the request again.", "webhook_url");
  }
  await refuseWhenPendingCapReached(ctx.webhooks, accountId, ctx.config.maxPendingWebhooks, ctx.now());
}

/** The 202 body: the request's status as GET shows it while it runs (stored for replays). */
export function acceptedBodyOf(requestId: string, operation: RequestOperation, receivedAt: number, prepared: Prepared<unknown>, queued: boolean): string {
  return JSON.stringify(
    requestStatusOf({
      requestId,
      operation,
      state: "running",
      createdAt: new Date(receivedAt),
      finishedAt: null,
      progressDone: 0,
      progressTotal: prepared.total,
      error: null,
      webhook: prepared.webhookUrl !== undefined ? { id: "", url: prepared.webhookUrl, state: "pending", attempts: 0 } : null,
      queued,
    }),
  );
}

/**
 * An asynchronous request after its row is written: credits and the rate window are checked
 * now, exactly as for a synchronous request (402/429 come back at once, and the request is
 * forgotten), then it starts in the background, or, when this gateway has no free slot, is
 * handed to the sweeps (here or on another gateway) as queued; 202 says where to fetch the result.
 */
export async function acceptAsync<Plan>(
  ctx: LifecycleContext,
  background: BackgroundRuns,
  operation: Operation<Plan>,
  prepared: Prepared<Plan>,
  a: { request: FastifyRequest; reply: FastifyReply; acceptedBody: string; queued: boolean; traceparent: string | null },
): Promise<FastifyReply> {
  const requestId = a.request.id;
  const caller = a.request.caller!;
  const log = a.request.log as WorkLogger;
  let reservation: { windowRemaining: number };
  try {
    reservation = await reserveUsage(ctx.ledger, { kind: operation.kind, accountId: caller.accountId, keyId: caller.keyId, reservationId: requestId, units: prepared.units, fetches: prepared.fetches }, log);
  } catch (err) {
    await ctx.repo.abandon(requestId, ctx.owner).catch((e: unknown) => log.error({ err: e, requestId }, "forgetting a refused asynchronous request failed"));
    throw err;
  }
  if (a.queued) {
    // Handed to the sweeps now; a failed release only delays it until the lease runs out.
    void ctx.repo.release(requestId, ctx.owner).catch((err: unknown) => log.warn({ err, requestId }, "releasing a queued request failed; it starts when its lease runs out"));
  } else {
    background.add(
      runOwned(ctx, operation, prepared, {
        requestId,
        runId: requestId,
        caller,
        receivedAt: ctx.now(),
        reservationId: requestId,
        alreadyReserved: { windowRemaining: reservation.windowRemaining },
        mode: "async",
        traceparent: a.traceparent,
        log,
      }),
    );
  }
  return a.reply
    .code(202)
    .header("Location", resultUrlOf(requestId))
    .header("Retry-After", "2")
    .header("X-RateLimit-Remaining", String(reservation.windowRemaining))
    .type("application/json; charset=utf-8")
    .send(a.acceptedBody);
}

