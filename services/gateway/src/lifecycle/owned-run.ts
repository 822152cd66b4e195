import { newDeliveryId, type FinishedResponse } from "@adrank/db/repositories";
import type { LifecycleContext } from "./context.ts";
import { holdLease } from "./lease.ts";
import { runMetered, type Attempt } from "./metered-run.ts";
import type { Operation, Prepared, WorkLogger } from "./operation.ts";
import { publicReasonOf } from "./failure-reason.ts";
import { progressWriter } from "./progress-writer.ts";
import { requestStatusOf } from "./request-status.ts";

const NEVER = new AbortController().signal;

/** A request this process holds the lease of: stored, so its answer outlives the connection. */
export interface OwnedAttempt extends Omit<Attempt, "clientGone" | "onProgress" | "units" | "fetches"> {
  mode: "sync" | "async";
}

/**
 * Runs a request this process owns to its end, renewing its lease meanwhile: stores the
 * answer (and queues its webhook), or on failure forgets a synchronous request (a retry with
 * its key runs afresh) and records an asynchronous one as failed (GET and the webhook say why).
 */
export async function runOwned<Plan>(ctx: LifecycleContext, operation: Operation<Plan>, prepared: Prepared<Plan>, a: OwnedAttempt): Promise<FinishedResponse> {
  const lease = holdLease(ctx.repo, a.requestId, ctx.owner, ctx.config.leaseMs, a.log);
  try {
    const result = await runMetered(ctx.metering, operation, prepared.plan, { ...a, units: prepared.units, fetches: prepared.fetches, clientGone: NEVER, onProgress: progressWriter(ctx.repo, a.requestId, a.log) });
    const response: FinishedResponse = { status: 200, headers: { "X-RateLimit-Remaining": String(result.rateLimitRemaining) }, body: JSON.stringify(result.body) };
    const stored = await ctx.repo
      .finish(a.requestId, ctx.owner, { state: "succeeded", response, ...(prepared.webhookUrl !== undefined ? { webhookDeliveryId: newDeliveryId() } : {}) })
      .catch((err: unknown) => {
        a.log.error({ err, requestId: a.requestId }, "storing a finished request failed; it will be taken over and answered again when its lease runs out");
        return null;
      });
    if (stored === false) a.log.warn({ requestId: a.requestId }, "another gateway took this request over; its answer is the one kept");
    return response;
  } catch (err) {
    if (a.mode === "sync") await forgetSync(ctx, a.requestId, a.log);
    else await failAsync(ctx, a.requestId, err, prepared.webhookUrl !== undefined, a.log);
    throw err;
  } finally {
    lease.stop();
  }
}

/** A synchronous request refused or failed before anything billable: forgotten, so a retry with its key runs afresh. */
export async function forgetSync(ctx: LifecycleContext, requestId: string, log: WorkLogger): Promise<void> {
  await ctx.repo.abandon(requestId, ctx.owner).catch((e: unknown) => log.error({ err: e, requestId }, "forgetting a failed request failed; its key frees when the lease runs out"));
}

/** Ends an asynchronous request that cannot finish: GET and the webhook then say why. */
export async function failAsync(ctx: LifecycleContext, requestId: string, err: unknown, withWebhook: boolean, log: WorkLogger): Promise<void> {
  const error = publicReasonOf(err);
  log.error({ err, requestId }, "asynchronous request failed");
  try {
    const view = await ctx.repo.findById(requestId);
    if (!view) return;
    const status = requestStatusOf({ ...view, state: "failed", finishedAt: new Date(ctx.now()), error, webhook: view.webhook });
    await ctx.repo.finish(requestId, ctx.owner, { state: "failed", error, response: { status: 200, headers: {}, body: JSON.stringify(status) }, ...(withWebhook ? { webhookDeliveryId: newDeliveryId() } : {}) });
  } catch (e) {
    log.error({ err: e, requestId }, "recording an asynchronous request's failure failed; it will be taken over when its lease runs out");
  }
}
