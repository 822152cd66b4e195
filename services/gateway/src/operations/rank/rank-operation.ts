import type { FastifyInstance } from "fastify";
import type { ImageRef, ScoreJob } from "@adrank/bus-contracts";
import { RankRequest } from "@adrank/contracts";
import { publishJob } from "@adrank/messaging";
import { assembleRankResponse, createDispatchTally, modelUsageOfRank, planRank, scoreAssets, type AssetOutcome, type ClosePairRefiner, type RankPlan } from "@adrank/rank-assembly";
import { inSpan } from "@adrank/telemetry";
import { parseJsonBody } from "../../http/parse-body.ts";
import { UnfinishedWork, type Operation } from "../../lifecycle/operation.ts";
import { mapWithSlots, startInOrder } from "../shared/asset-slots.ts";
import { fetchedUrlsOf } from "../shared/fetched-urls.ts";
import { imageRefOf, prepareImage } from "../shared/prepare-image.ts";
import { resolveAudience } from "../shared/resolve-audience.ts";
import { evaluateAsset, type EvaluateAssetContext } from "./evaluate-asset.ts";
import { openScoreResults } from "./score-results.ts";

export interface RankOptions {
  /** RANK_TIMEOUT_MS, counted from arrival. */
  timeoutMs: number;
  /** Assets evaluated at once (ASSET_CONCURRENCY). */
  assetConcurrency: number;
  refiner: ClosePairRefiner;
}

const PUBLISH_TIMEOUT_MS = 5_000;

/**
 * POST /api/v1/rank (rankAssets): a body is validated, its audience resolved and its batch
 * planned; the run evaluates the assets (at most `assetConcurrency` at once, images prepared
 * ahead in input order), refines close pairs and assembles the answer from what succeeded.
 * A client that leaves pays for the evaluations that had succeeded or been dispatched when it left.
 */
export function rankOperation(app: FastifyInstance, opts: RankOptions): Operation<RankPlan> {
  const { nc, js, topo, images } = app.bus;
  return {
    name: "rank",
    kind: "scoring",
    timeoutMs: opts.timeoutMs,

    prepare: (raw, caller) =>
      inSpan("validate rank request", {}, async () => {
        const body = parseJsonBody(RankRequest, raw);
        const plan = planRank(body, await resolveAudience(app.repos.audiences, caller.accountId, body));
        return { plan, units: plan.maxEvaluations, fetches: fetchedUrlsOf(plan.assets.map((a) => a.url)), total: plan.assets.length, async: body.async, webhookUrl: body.webhook_url };
      }),

    async run(plan, { requestId, runId, workDeadline, stop, stoppedBy, onProgress, traceparent, log }) {
      const stopReason = () =>
        stoppedBy() === "client" ? "The request was cancelled before the asset was scored." : `The asset was not scored within the request's time limit of ${Math.round(opts.timeoutMs / 1000)} s.`;
      const outcomes: Array<AssetOutcome | undefined> = new Array(plan.assets.length);
      let done = 0;
      // Evaluations handed to scorers, for a client that leaves. Listening before the results
      // join does, the tally freezes before the join ends every wait with a failure.
      const tally = createDispatchTally();
      stop.addEventListener("abort", () => tally.freeze(), { once: true });
      const results = openScoreResults(nc, topo, runId, stop, stopReason, log);
      try {
        const ctx: EvaluateAssetContext = {
          requestId: runId,
          deadline: workDeadline,
          signal: stop,
          stopReason,
          publish: (job: ScoreJob) => {
            tally.dispatched(job.jobId);
            return publishJob(js, topo.jobs.score, job, { traceparent, timeoutMs: PUBLISH_TIMEOUT_MS });
          },
          join: {
            ...results,
            expect: (jobId) =>
              results.expect(jobId).then((outcome) => {
                tally.answered(jobId, outcome.ok);
                return outcome;
              }),
          },
          log,
        };
        const storeImage = (ref: string, bytes: Uint8Array) => images.put(ref, bytes);
        // Images are prepared ahead, in input order, so that image intake is not on the critical
        // path; evaluation (jobs in flight) stays limited to `assetConcurrency` assets.
        const preparations = startInOrder(plan.assets, opts.assetConcurrency, (asset) => prepareImage(asset, { signal: stop, stopReason, intake: app.imageIntake, storeImage, log }));
        await mapWithSlots(
          plan.assets,
          opts.assetConcurrency,
          stop,
          async (asset) => {
            outcomes[asset.index] = await evaluateAsset(asset, ctx, preparations[asset.index]!);
            onProgress(++done);
          },
          (asset) => {
            outcomes[asset.index] = { kind: "failed", error: stopReason() };
          },
        );
        const batch = scoreAssets(plan, outcomes);
        const imagesOfScored = new Map<number, ImageRef>();
        for (const asset of batch.scored) {
          const prepared = await preparations[asset.index]!;
          if (prepared.ok) imagesOfScored.set(asset.index, imageRefOf(prepared.image));
        }
        const refinement = await opts.refiner({ requestId: runId, plan, assets: batch.scored, images: imagesOfScored, deadline: workDeadline, signal: stop, traceparent });
        return {
          // A client that left is not answered: it pays for what it set going (see the catch below).
          unitsUsed: stoppedBy() === "client" ? tally.billedWhenClientLeft(plan.maxEvaluations) : batch.billedEvaluations,
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
        throw new UnfinishedWork(err, { unitsUsed: stoppedBy() === "client" ? tally.billedWhenClientLeft(plan.maxEvaluations) : 0, modelUsage: modelUsageOfRank(outcomes, null) });
      } finally {
        results.close();
      }
    },
  };
}
