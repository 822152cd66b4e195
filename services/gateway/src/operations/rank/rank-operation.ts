import type { FastifyInstance } from "fastify";
import { RankRequest } from "@adrank/contracts";
import { assembleRankResponse, createDispatchTally, modelUsageOfRank, planRank, type AssetOutcome, type AssetPlan, type ClosePairRefiner, type RankPlan } from "@adrank/rank-assembly";
import { inSpan } from "@adrank/telemetry";
import { parseJsonBody } from "../../http/parse-body.ts";
import { UnfinishedWork, type Operation, type WorkLogger } from "../../lifecycle/operation.ts";
import { startInOrder } from "../shared/asset-slots.ts";
import { fetchedUrlsOf } from "../shared/fetched-urls.ts";
import { prepareImage, type PreparedImage } from "../shared/prepare-image.ts";
import { resolveAudience } from "../shared/resolve-audience.ts";
import { rankBatch } from "./rank-batch.ts";
import { assetKeeping, planReuse, reservedUnits, type PlannedReuse } from "./evaluation-reuse.ts";
import type { KeptEvaluations } from "./kept-evaluations.ts";

export interface RankOptions {
  /** RANK_TIMEOUT_MS, counted from arrival. */
  timeoutMs: number;
  /** Assets evaluated at once (ASSET_CONCURRENCY). */
  assetConcurrency: number;
  refiner: ClosePairRefiner;
  /** Evaluations kept for reuse across requests (issue 36). */
  kept: KeptEvaluations;
}

/** A rank request ready to run: its plan, what it may reuse (null: reuse_evaluations was not asked), and the units it reserves. */
export interface RankRun {
  plan: RankPlan;
  reuse: PlannedReuse | null;
  units: number;
}

/**
 * POST /api/v1/rank (rankAssets): a body is validated, its audience resolved and its batch
 * planned; the run evaluates the assets (at most `assetConcurrency` at once, images prepared
 * ahead in input order), refines close pairs and assembles the answer from what succeeded.
 * A client that leaves pays for the evaluations that had succeeded or been dispatched when it left.
 * Every evaluation that succeeds is kept; with reuse_evaluations, kept ones are used instead of
 * jobs, cost nothing, and those of images in the body are not even reserved (evaluation-reuse.ts).
 */
export function rankOperation(app: FastifyInstance, opts: RankOptions): Operation<RankRun> {
  return {
    name: "rank",
    kind: "scoring",
    timeoutMs: opts.timeoutMs,

    prepare: (raw, caller) =>
      inSpan("validate rank request", {}, async () => {
        const body = parseJsonBody(RankRequest, raw);
        const plan = planRank(body, await resolveAudience(app.repos.audiences, caller.accountId, body));
        const [reuse = null] = body.reuse_evaluations ? await planReuse(opts.kept, app.imageIntake, caller.accountId, [plan]) : [];
        const units = reservedUnits(plan.maxEvaluations, [reuse]);
        return { plan: { plan, reuse, units }, units, fetches: fetchedUrlsOf(plan.assets.map((a) => a.url)), total: plan.assets.length, async: body.async, webhookUrl: body.webhook_url };
      }),

    async run(run, { requestId, runId, caller, workDeadline, stop, stoppedBy, onProgress, traceparent, log }) {
      const { plan } = run;
      const stopReason = stopReasonOf(stoppedBy, opts.timeoutMs);
      const outcomes: Array<AssetOutcome | undefined> = new Array(plan.assets.length);
      let done = 0;
      // Evaluations handed to scorers, for a client that leaves. Listening before the results
      // join does, the tally freezes before the join ends every wait with a failure.
      const tally = createDispatchTally();
      stop.addEventListener("abort", () => tally.freeze(), { once: true });
      // Images are prepared ahead, in input order, so that image intake is not on the critical
      // path; evaluation (jobs in flight) stays limited to `assetConcurrency` assets.
      const preparations = prepareAhead(app, plan.assets, opts.assetConcurrency, stop, stopReason, log);
      try {
        const { batch, refinement } = await rankBatch(app.bus, plan, {
          busId: runId,
          workDeadline,
          stop,
          stopReason,
          tally,
          preparations,
          assetConcurrency: opts.assetConcurrency,
          outcomes,
          onAssetDone: () => onProgress(++done),
          refiner: opts.refiner,
          keeping: assetKeeping(opts.kept, caller.accountId, run.reuse),
          traceparent,
          log,
        });
        return {
          // A client that left is not answered: it pays for what it set going (see the catch below).
          unitsUsed: stoppedBy() === "client" ? tally.billedWhenClientLeft(run.units) : batch.billedEvaluations,
          modelUsage: modelUsageOfRank(outcomes, refinement),
          answer: (settlement) => {
            app.gatewayMetrics.billed.inc({ kind: "scoring" }, settlement.units);
            return assembleRankResponse({
              requestId,
              plan,
              refinement,
              errors: batch.errors,
              settlement,
            });
          },
        };
      } catch (err) {
        // Client gone: it pays for the evaluations that had succeeded or been dispatched when it left
        // (DispatchTally). Our own failure: it gets nothing, pays nothing. Either way, the model
        // calls that came back were made and are recorded.
        throw new UnfinishedWork(err, { unitsUsed: stoppedBy() === "client" ? tally.billedWhenClientLeft(run.units) : 0, modelUsage: modelUsageOfRank(outcomes, null) });
      }
    },
  };
}

/** The sentence an unscored asset gets once the request has stopped: the client left, or the time limit passed. */
export function stopReasonOf(stoppedBy: () => "client" | "deadline" | null, timeoutMs: number): () => string {
  return () =>
    stoppedBy() === "client" ? "The request was cancelled before the asset was scored." : `The asset was not scored within the request's time limit of ${Math.round(timeoutMs / 1000)} s.`;
}

/** Starts every asset's image preparation, in input order, at most `concurrency` at once. */
export function prepareAhead(app: FastifyInstance, assets: readonly AssetPlan[], concurrency: number, stop: AbortSignal, stopReason: () => string, log: WorkLogger): Promise<PreparedImage>[] {
  const storeImage = (ref: string, bytes: Uint8Array) => app.bus.images.put(ref, bytes);
  return startInOrder(assets, concurrency, (asset) => prepareImage(asset, { signal: stop, stopReason, intake: app.imageIntake, storeImage, log }));
}
