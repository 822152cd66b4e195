import type { JetStreamClient } from "@nats-io/jetstream";
import type { ImageRef, ScoreJob } from "@adrank/bus-contracts";
import type { RankResponse } from "@adrank/contracts";
import { publishJob, type NatsConnection, type Topology } from "@adrank/messaging";
import { assembleRankResponse, billedEvaluationsOfBatch, modelUsageOfRank, scoreAssets, type AssetOutcome, type ClosePairRefiner, type RankPlan, type Settlement } from "@adrank/rank-assembly";
import type { SettledUsage } from "../shared/metering.ts";
import { mapWithSlots, startInOrder } from "../shared/asset-slots.ts";
import { runMetered, type MeteredCall, type MeteredDeps, type MeteredResult } from "../shared/metered-request.ts";
import { imageRefOf, prepareImage, type ImageIntake } from "../shared/prepare-image.ts";
import { evaluateAsset, type AssetLogger, type EvaluateAssetContext } from "./evaluate-asset.ts";
import { openScoreResults } from "./score-results.ts";

export interface RankDeps extends MeteredDeps {
  nc: NatsConnection;
  js: JetStreamClient;
  topo: Topology;
  intake: ImageIntake;
  storeImage(ref: string, bytes: Uint8Array): Promise<void>;
  refiner: ClosePairRefiner;
  assetConcurrency: number;
}

export interface RankCall extends Omit<MeteredCall, "kind" | "units" | "log"> {
  plan: RankPlan;
  /** The id jobs and results travel under on the bus: the request id, or a fresh one for a takeover's attempt (the first attempt's jobs may still be in flight). */
  runId?: string;
  /** Called as each asset finishes, with how many have. */
  onProgress?(done: number): void;
  traceparent: string | null;
  log: AssetLogger & MeteredCall["log"];
}

const PUBLISH_TIMEOUT_MS = 5_000;

/**
 * The rank operation after validation, as a metered request over the batch's maximum
 * evaluations: evaluate the assets (at most `assetConcurrency` at once), refine close pairs,
 * settle exactly what succeeded, assemble the response. A client that leaves still pays for
 * what succeeded before it left.
 */
export async function runRank(deps: RankDeps, call: RankCall): Promise<MeteredResult<RankResponse>> {
  const { plan, requestId, log } = call;
  const runId = call.runId ?? requestId;
  let done = 0;
  const outcomes: Array<AssetOutcome | undefined> = new Array(plan.assets.length);
  return runMetered(
    deps,
    { ...call, kind: "scoring", units: plan.maxEvaluations },
    async ({ workDeadline, stop, stoppedBy }) => {
      const stopReason = () =>
        stoppedBy() === "client" ? "The request was cancelled before the asset was scored." : `The asset was not scored within the request's time limit of ${Math.round(deps.timeoutMs / 1000)} s.`;
      const results = openScoreResults(deps.nc, deps.topo, runId, stop, stopReason, log);
      try {
        const ctx: EvaluateAssetContext = {
          requestId: runId,
          deadline: workDeadline,
          signal: stop,
          stopReason,
          publish: (job: ScoreJob) => publishJob(deps.js, deps.topo.jobs.score, job, { traceparent: call.traceparent, timeoutMs: PUBLISH_TIMEOUT_MS }),
          join: results,
          log,
        };
        // Images are prepared ahead, in input order, so that image intake is not on the critical
        // path; evaluation (jobs in flight) stays limited to `assetConcurrency` assets.
        const preparations = startInOrder(plan.assets, deps.assetConcurrency, (asset) =>
          prepareImage(asset, { signal: stop, stopReason, intake: deps.intake, storeImage: deps.storeImage, log }),
        );
        await mapWithSlots(
          plan.assets,
          deps.assetConcurrency,
          stop,
          async (asset) => {
            outcomes[asset.index] = await evaluateAsset(asset, ctx, preparations[asset.index]!);
            call.onProgress?.(++done);
          },
          (asset) => {
            outcomes[asset.index] = { kind: "failed", error: stopReason() };
          },
        );
        const batch = scoreAssets(plan, outcomes);
        const images = new Map<number, ImageRef>();
        for (const asset of batch.scored) {
          const prepared = await preparations[asset.index]!;
          if (prepared.ok) images.set(asset.index, imageRefOf(prepared.image));
        }
        const refinement = await deps.refiner({ requestId: runId, plan, assets: batch.scored, images, deadline: workDeadline, signal: stop, traceparent: call.traceparent });
        return {
          unitsUsed: batch.billedEvaluations,
          modelUsage: modelUsageOfRank(outcomes, refinement),
          respond: (settled, billed) => assembleRankResponse({ requestId, plan, refinement, errors: batch.errors, settlement: settlementOf(settled, billed) }),
        };
      } finally {
        results.close();
      }
    },
    // Client gone: it still used what succeeded. Our own failure: it gets nothing, pays nothing.
    // Either way, the model calls that came back were made and are recorded.
    () => ({ unitsUsed: call.clientGone.aborted ? billedEvaluationsOfBatch(outcomes.filter((o): o is AssetOutcome => o !== undefined)) : 0, modelUsage: modelUsageOfRank(outcomes, null) }),
  );
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
