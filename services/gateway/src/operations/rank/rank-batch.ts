import type { ImageRef, ScoreJob } from "@adrank/bus-contracts";
import { publishJob, type ResultRouter, type Topology } from "@adrank/messaging";
import type { JetStreamClient } from "@nats-io/jetstream";
import { scoreAssets, type AssetOutcome, type ClosePairRefiner, type DispatchTally, type RankPlan, type RefinementOutcome, type ScoredBatch } from "@adrank/rank-assembly";
import type { WorkLogger } from "../../lifecycle/operation.ts";
import { mapWithSlots } from "../shared/asset-slots.ts";
import { imageRefOf, type PreparedImage } from "../shared/prepare-image.ts";
import { evaluateAsset, type EvaluateAssetContext } from "./evaluate-asset.ts";
import type { AssetKeeping } from "./evaluation-reuse.ts";
import { openScoreResults } from "./score-results.ts";

const PUBLISH_TIMEOUT_MS = 5_000;

export interface RankBatchBus {
  js: JetStreamClient;
  topo: Topology;
  results: ResultRouter;
}

export interface RankBatchContext {
  /** The id this batch's jobs travel under on the bus (a uuid; its results subject). */
  busId: string;
  /** Epoch ms by which the work must end. */
  workDeadline: number;
  stop: AbortSignal;
  stopReason(): string;
  /** Evaluations handed to workers, for a client that leaves (shared by every batch of a request). */
  tally: DispatchTally;
  /** Images prepared by the caller, by asset index: started once, however many batches read them. */
  preparations: ReadonlyArray<Promise<PreparedImage>>;
  /** Assets evaluated at once, per batch. */
  assetConcurrency: number;
  /** Filled in as the assets finish, so a caller whose batch throws still knows what was spent. */
  outcomes: Array<AssetOutcome | undefined>;
  /** Called once per asset when its evaluations have ended. */
  onAssetDone(): void;
  refiner: ClosePairRefiner;
  /** Kept evaluations this ranking may reuse, and where its new ones are kept (evaluation-reuse.ts). */
  keeping: AssetKeeping;
  traceparent: string | null;
  log: WorkLogger;
}

export interface RankedBatch {
  batch: ScoredBatch;
  refinement: RefinementOutcome;
}

/**
 * One ranking of a plan's assets: evaluates them (at most `assetConcurrency` at once, each
 * waiting for its prepared image), splits the outcomes into scored assets and errors, and
 * refines close pairs. POST /api/v1/rank runs one; POST /api/v1/rank/audiences runs one per
 * audience over the same prepared images, each under a bus id of its own.
 */
export async function rankBatch(bus: RankBatchBus, plan: RankPlan, ctx: RankBatchContext): Promise<RankedBatch> {
  const { tally, stop, stopReason, log } = ctx;
  const results = openScoreResults(bus.results, stop, stopReason, log);
  try {
    const evaluation: EvaluateAssetContext = {
      requestId: ctx.busId,
      deadline: ctx.workDeadline,
      signal: stop,
      stopReason,
      publish: (job: ScoreJob) => {
        tally.dispatched(job.jobId);
        return publishJob(bus.js, bus.topo.jobs.score, { ...job, replyTo: results.replyTo(job.jobId) }, { traceparent: ctx.traceparent, timeoutMs: PUBLISH_TIMEOUT_MS });
      },
      join: {
        ...results,
        expect: (jobId) =>
          results.expect(jobId).then((outcome) => {
            tally.answered(jobId, outcome.ok);
            return outcome;
          }),
      },
      keeping: ctx.keeping,
      log,
    };
    await mapWithSlots(
      plan.assets,
      ctx.assetConcurrency,
      stop,
      async (asset) => {
        ctx.outcomes[asset.index] = await evaluateAsset(asset, evaluation, ctx.preparations[asset.index]!);
        ctx.onAssetDone();
      },
      (asset) => {
        ctx.outcomes[asset.index] = { kind: "failed", error: stopReason() };
      },
    );
    const batch = scoreAssets(plan, ctx.outcomes);
    const imagesOfScored = new Map<number, ImageRef>();
    for (const asset of batch.scored) {
      const prepared = await ctx.preparations[asset.index]!;
      if (prepared.ok) imagesOfScored.set(asset.index, imageRefOf(prepared.image));
    }
    const refinement = await ctx.refiner({ requestId: ctx.busId, plan, assets: batch.scored, images: imagesOfScored, deadline: ctx.workDeadline, signal: stop, traceparent: ctx.traceparent });
    return { batch, refinement };
  } finally {
    results.close();
  }
}
