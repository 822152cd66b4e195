import { randomUUID } from "node:crypto";
import type { FinishedResponse, TakenOver } from "@adrank/db/repositories";
import type { Caller } from "../../auth/authenticator.ts";
import type { LifecycleContext } from "../context.ts";
import { AttemptsExhaustedError, MAX_ATTEMPTS } from "../failure-reason.ts";
import type { Operation, Prepared, WorkLogger } from "../operation.ts";
import { failAsync, forgetSync, runOwned } from "../owned-run.ts";
import { reserveForTakeover } from "../takeover-reservation.ts";

/**
 * Runs a request whose gateway died, under the same request id: its reservation is
 * re-established first (billed once; see reserveForTakeover), then it runs as an owned request.
 */
export async function runTakenOver<Plan>(
  ctx: LifecycleContext,
  t: TakenOver,
  operation: Operation<Plan>,
  prepared: Prepared<Plan>,
  caller: Caller,
  mode: "sync" | "async",
  traceparent: string | null,
  log: WorkLogger,
): Promise<FinishedResponse> {
  let reservation: Awaited<ReturnType<typeof reserveForTakeover>>;
  try {
    reservation = await reserveForTakeover(ctx.ledger, ctx.repo, t, { kind: operation.kind, units: prepared.units, fetches: prepared.fetches }, log);
  } catch (err) {
    if (mode === "sync") await forgetSync(ctx, t.requestId, log);
    else await failAsync(ctx, t.requestId, err, prepared.webhookUrl !== undefined, log);
    throw err;
  }
  return runOwned(ctx, operation, prepared, { requestId: t.requestId, runId: randomUUID(), caller, receivedAt: ctx.now(), ...reservation, mode, traceparent, log });
}

/**
 * An asynchronous request the sweep claimed: a queued one's first start, or a takeover. Its
 * stored body is prepared again; it fails for good after MAX_ATTEMPTS. Never throws.
 */
export async function resumeAsync(ctx: LifecycleContext, t: TakenOver): Promise<void> {
  const log = ctx.log.child({ requestId: t.requestId, attempt: t.attempt });
  // Attempt 1 is a queued request's first start (it was written as attempt 0).
  if (t.attempt === 1) log.info({}, "starting a queued asynchronous request");
  else log.warn({}, "taking over an asynchronous request whose gateway died");
  const caller: Caller = { accountId: t.accountId, keyId: t.keyId };
  const operation = ctx.operationOf(t.operation);
  let prepared: Prepared<unknown>;
  try {
    if (t.attempt > MAX_ATTEMPTS) throw new AttemptsExhaustedError();
    if (t.requestBody === null) throw new Error("the stored body is missing");
    prepared = await operation.prepare(JSON.parse(t.requestBody), caller);
  } catch (err) {
    await failAsync(ctx, t.requestId, err, t.webhookUrl !== null, log);
    return;
  }
  await runTakenOver(ctx, t, operation, prepared, caller, "async", null, log).catch(() => undefined);
}
