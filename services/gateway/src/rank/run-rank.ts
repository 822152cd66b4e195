import { startDeadline } from "@adrank/runtime";
import type { JetStreamClient } from "@nats-io/jetstream";
import { publishJob, type NatsConnection, type Topology } from "@adrank/messaging";
import type { ImageRef, ScoreJob } from "@adrank/bus-contracts";
import {
  assembleRankResponse,
  billedEvaluationsOfBatch,
  scoreAssets,
  type AssetOutcome,
  type ClosePairRefiner,
  type RankPlan,
  type Settlement,
} from "@adrank/rank-assembly";
import type { RankResponse } from "@adrank/contracts";
import type { Caller } from "../auth/authenticator.ts";
import { mapWithSlots, startInOrder } from "./asset-slots.ts";
import { evaluateAsset, prepareAssetImage, type AssetImageIntake, type AssetLogger, type EvaluateAssetContext } from "./evaluate-asset.ts";
import { reserveUsage, settleUsage, type MeteringLedger, type SettledUsage } from "../metering/usage.ts";
import { openResultJoin, type ResultJoin } from "./result-join.ts";

export interface RankDeps {
  nc: NatsConnection;
  js: JetStreamClient;
  topo: Topology;
  ledger: MeteringLedger;
  intake: AssetImageIntake;
  storeImage(ref: string, bytes: Uint8Array): Promise<void>;
  refiner: ClosePairRefiner;
  assetConcurrency: number;
  timeoutMs: number;
  /** One ledger round trip; settlement may take two (the client retries a timed-out settle once). */
  ledgerTimeoutMs: number;
  now(): number;
}

export interface RankCall {
  requestId: string;
  caller: Caller;
  plan: RankPlan;
  /** Epoch ms when the request arrived: the 120 s limit counts from here. */
  receivedAt: number;
  /** Fires when the client disconnects before the response. */
  clientGone: AbortSignal;
  traceparent: string | null;
  log: AssetLogger & { info(obj: object, msg?: string): void };
}

export interface RankResult {
  body: RankResponse;
  /** Scoring evaluations left in the key's current window (X-RateLimit-Remaining). */
  rateLimitRemaining: number;
}

const PUBLISH_TIMEOUT_MS = 5_000;

/**
 * Time kept back from the request limit for settlement and the response, so the whole
 * request ends within RANK_TIMEOUT_MS even when some evaluation never answers and the
 * settlement needs its retry: two ledger round trips and a little, at most a tenth.
 */
export function settleMarginMs(timeoutMs: number, ledgerTimeoutMs: number): number {
  return Math.min(Math.floor(timeoutMs / 10), 2 * ledgerTimeoutMs + 500);
}

/**
 * The rank operation after validation: reserve the batch's maximum evaluations, evaluate the
 * assets (at most `assetConcurrency` at once), settle exactly what succeeded, assemble the
 * response. Settlement runs however the work ends (success, deadline, client gone, a worker
 * failing); only an internal failure of ours settles 0, because the caller gets a 500 and
 * no results.
 */
export async function runRank(deps: RankDeps, call: RankCall): Promise<RankResult> {
  const { plan, requestId, caller, log } = call;
  const reservation = await reserveUsage(deps.ledger, { kind: "scoring", accountId: caller.accountId, keyId: caller.keyId, reservationId: requestId, units: plan.maxEvaluations }, log);

  const workDeadline = call.receivedAt + deps.timeoutMs - settleMarginMs(deps.timeoutMs, deps.ledgerTimeoutMs);
  const deadline = startDeadline(workDeadline - deps.now());
  const settleRetry = { limitAt: call.receivedAt + deps.timeoutMs, ledgerTimeoutMs: deps.ledgerTimeoutMs, now: deps.now };
  const deadlineReached = deadline.signal;
  const stop = AbortSignal.any([deadlineReached, call.clientGone]);
  const stopReason = () =>
    call.clientGone.aborted ? "The request was cancelled before the asset was scored." : `The asset was not scored within the request's time limit of ${Math.round(deps.timeoutMs / 1000)} s.`;

  const outcomes: Array<AssetOutcome | undefined> = new Array(plan.assets.length);
  let join: ResultJoin | undefined;
  let completed = false;
  let settled: SettledUsage | null = null;
  let billed = 0;
  let body: RankResponse | undefined;
  try {
    const results = openResultJoin(deps.nc, deps.topo, requestId, stop, stopReason, log);
    join = results;
    const ctx: EvaluateAssetContext = {
      requestId,
      deadline: workDeadline,
      signal: stop,
      stopReason,
      intake: deps.intake,
      storeImage: deps.storeImage,
      publish: (job: ScoreJob) => publishJob(deps.js, deps.topo.jobs.score, job, { traceparent: call.traceparent, timeoutMs: PUBLISH_TIMEOUT_MS }),
      join: results,
      log,
    };
    // Images are prepared ahead, in input order, so that image intake is not on the critical
    // path; evaluation (jobs in flight) stays limited to `assetConcurrency` assets.
    const preparations = startInOrder(plan.assets, deps.assetConcurrency, (asset) => prepareAssetImage(asset, ctx));
    await mapWithSlots(
      plan.assets,
      deps.assetConcurrency,
      stop,
      async (asset) => {
        outcomes[asset.index] = await evaluateAsset(asset, ctx, preparations[asset.index]!);
      },
      (asset) => {
        outcomes[asset.index] = { kind: "failed", error: stopReason() };
      },
    );
    const batch = scoreAssets(plan, outcomes);
    const images = new Map<number, ImageRef>();
    for (const asset of batch.scored) {
      const prepared = await preparations[asset.index]!;
      if (prepared.ok) images.set(asset.index, { ref: prepared.image.ref, mime: prepared.image.mime, width: prepared.image.width, height: prepared.image.height });
    }
    const refinement = await deps.refiner({ requestId, plan, assets: batch.scored, images, deadline: workDeadline, signal: stop, traceparent: call.traceparent });
    completed = true;
    billed = batch.billedEvaluations;
    settled = await settleUsage(deps.ledger, { accountId: caller.accountId, reservationId: requestId, unitsUsed: billed }, log, settleRetry);
    body = assembleRankResponse({ requestId, plan, refinement, errors: batch.errors, settlement: settlementOf(settled, billed) });
  } finally {
    join?.close();
    if (!completed) {
      // Client gone: it still used what succeeded. Our own failure: it gets nothing, pays nothing.
      billed = call.clientGone.aborted ? billedEvaluationsOfBatch(outcomes.filter((o): o is AssetOutcome => o !== undefined)) : 0;
      settled = await settleUsage(deps.ledger, { accountId: caller.accountId, reservationId: requestId, unitsUsed: billed }, log, settleRetry);
    }
    log.info({ reserved: plan.maxEvaluations, billed, settled: settled !== null, clientGone: call.clientGone.aborted, deadlineReached: deadlineReached.aborted }, "rank metered");
    deadline.clear();
  }
  return { body, rateLimitRemaining: settled?.windowRemaining ?? reservation.windowRemaining };
}

/**
 * Summary figures from the ledger's settlement. When the settlement could not be confirmed
 * the reservation expires unsettled, which charges nothing: the summary says 0 credits used
 * and an unknown balance rather than a figure the ledger never confirmed.
 */
function settlementOf(settled: SettledUsage | null, billed: number): Settlement {
  return settled
    ? { scoringEvaluations: settled.unitsUsed, creditsUsed: settled.creditsUsed, creditsRemaining: settled.balance }
    : { scoringEvaluations: billed, creditsUsed: 0, creditsRemaining: null };
}
