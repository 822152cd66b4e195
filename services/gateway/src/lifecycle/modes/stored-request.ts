import type { FastifyReply, FastifyRequest } from "fastify";
import type { NewRequest } from "@adrank/db/repositories";
import { BodyValidationError, IdempotentRequestInProgressError } from "../../errors/api-errors.ts";
import type { LifecycleContext } from "../context.ts";
import type { Operation, Prepared, WorkLogger } from "../operation.ts";
import { resultUrlOf } from "../request-status.ts";
import { sendStored } from "../send-stored.ts";
import { runTakenOver } from "./takeover.ts";

/**
 * Writes a durable request's row, claiming its Idempotency-Key when it has one. A key already
 * in use for the same operation and body answers the repeat instead: the first request's
 * stored answer (a replay), or, when its gateway died, the answer of this process taking it
 * over; a different body is a 422. Says "claimed" when the row is this request's own, and
 * "answered" when the repeat's answer is on its way. (Not the reply itself: a FastifyReply is
 * a thenable, which `await` would resolve to nothing once it is sent.)
 */
export async function claimRequest<Plan>(
  ctx: LifecycleContext,
  operation: Operation<Plan>,
  prepared: Prepared<Plan>,
  row: NewRequest,
  idempotencyKey: string | null,
  request: FastifyRequest,
  reply: FastifyReply,
  traceparent: string | null,
): Promise<"claimed" | "answered"> {
  // A key freed while we looked (its request was refused) is claimed again: at most twice.
  for (let round = 0; ; round++) {
    const claim = await ctx.repo.start(row, idempotencyKey, ctx.config.keyTtlHours);
    if (claim.kind === "claimed") return "claimed";
    if (claim.operation !== operation.name || claim.fingerprint !== row.fingerprint) {
      throw new BodyValidationError(
        `This Idempotency-Key was already used within the last ${ctx.config.keyTtlHours} hours with ${claim.operation !== operation.name ? `POST /api/v1/${claim.operation}` : "a different request body"} (request_id ${claim.requestId}). Use a new key for a new request.`,
        "Idempotency-Key",
      );
    }
    const answered = await awaitHolder(ctx, operation, prepared, claim.requestId, request, reply, traceparent);
    if (answered !== "gone") return answered;
    if (round >= 2) throw new Error("an Idempotency-Key kept changing hands");
  }
}

/** A repeat of a key whose request is running elsewhere: wait for its answer, or take it over when its owner died. */
async function awaitHolder<Plan>(
  ctx: LifecycleContext,
  operation: Operation<Plan>,
  prepared: Prepared<Plan>,
  holderId: string,
  request: FastifyRequest,
  reply: FastifyReply,
  traceparent: string | null,
): Promise<"answered" | "gone"> {
  const caller = request.caller!;
  const log = request.log as WorkLogger;
  const deadline = request.receivedAt + operation.timeoutMs;
  for (let pause = 50; ; pause = Math.min(Math.round(pause * 1.5), 500)) {
    const view = await ctx.repo.find(holderId, caller.accountId);
    if (!view) return "gone";
    // A finished sync request, or any async one (its 202 is its first answer).
    if (view.accepted && (view.state !== "running" || view.mode === "async")) {
      const first = view.mode === "async" ? { ...view.accepted, headers: { Location: resultUrlOf(holderId), "Retry-After": "2" } } : view.accepted;
      sendStored(reply, first, holderId, { replayed: true });
      return "answered";
    }
    if (view.state === "running" && view.abandoned && view.mode === "sync") {
      const taken = await ctx.repo.takeOver(holderId, ctx.owner, ctx.config.leaseMs, ctx.config.namespace);
      if (taken) {
        log.warn({ requestId: holderId, attempt: taken.attempt }, "the gateway running this request died; this repeat takes it over");
        const response = await runTakenOver(ctx, taken, operation, prepared, { ...caller, keyId: taken.keyId }, "sync", traceparent, log);
        sendStored(reply, response, holderId, { replayed: false });
        return "answered";
      }
    }
    if (ctx.now() + pause > deadline) throw new IdempotentRequestInProgressError(holderId, 5);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}
