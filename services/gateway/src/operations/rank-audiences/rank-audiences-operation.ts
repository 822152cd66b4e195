import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { mergeModelUsage } from "@adrank/bus-contracts";
import { RankAudiencesRequest } from "@adrank/contracts";
import { RATE_LIMITS } from "@adrank/ledger-domain";
import {
  assembleRankAudiencesResponse,
  createDispatchTally,
  modelUsageOfRank,
  oversizedForWindow,
  planRank,
  type AssetOutcome,
  type RankPlan,
} from "@adrank/rank-assembly";
import { inSpan } from "@adrank/telemetry";
import { BodyValidationError } from "../../errors/api-errors.ts";
import { parseJsonBody } from "../../http/parse-body.ts";
import { UnfinishedWork, type Operation } from "../../lifecycle/operation.ts";
import { fetchedUrlsOf } from "../shared/fetched-urls.ts";
import { prepareAhead, stopReasonOf, type RankOptions } from "../rank/rank-operation.ts";
import { rankBatch, type RankedBatch } from "../rank/rank-batch.ts";
import { assetKeeping, planReuse, reservedUnits, type PlannedReuse } from "../rank/evaluation-reuse.ts";
import { resolveAudiences } from "./resolve-audiences.ts";

export interface AudiencePlan {
  name: string;
  audienceId: string | null;
  /** Exactly the plan POST /api/v1/rank makes for this audience alone. */
  plan: RankPlan;
  /** Its kept evaluations found while preparing (reuse_evaluations); null when reuse was not asked. */
  reuse: PlannedReuse | null;
}

export interface RankAudiencesPlan {
  audiences: AudiencePlan[];
  /** The most evaluations over all audiences. */
  maxEvaluations: number;
  /** What is reserved: the most evaluations less those found kept while preparing (at least 1). */
  units: number;
}

/**
 * POST /api/v1/rank/audiences (rankAcrossAudiences): one set of assets ranked for 2 to 5
 * audiences. Each audience gets the plan, evaluations and refinement a rank request for it
 * alone would get, so its ranking is that request's; what differs is that every image is
 * fetched and prepared once for all of them, and that the audiences run side by side (each
 * with `assetConcurrency` assets in flight, under a bus id of its own). Billing is rank's:
 * every successful evaluation, over all audiences, in one reservation and one settlement.
 */
export function rankAudiencesOperation(app: FastifyInstance, opts: RankOptions): Operation<RankAudiencesPlan> {
  return {
    name: "rank_audiences",
    kind: "scoring",
    timeoutMs: opts.timeoutMs,

    prepare: (raw, caller) =>
      inSpan("validate rank audiences request", {}, async () => {
        const body = parseJsonBody(RankAudiencesRequest, raw);
        const size = {
          assets: body.assets.length,
          assetsWithCopy: body.assets.filter((a) => a.copy_context !== undefined).length,
          audiences: body.audiences.length,
        };
        // Checked before any saved audience is loaded: the size alone decides it.
        const maxEvaluations = (size.assets + size.assetsWithCopy) * size.audiences;
        const oversized = oversizedForWindow({ ...size, maxEvaluations }, RATE_LIMITS.scoring);
        if (oversized) throw new BodyValidationError(oversized, "audiences");
        const named = await resolveAudiences(app.repos.audiences, caller.accountId, body.audiences);
        const plans = named.map(({ audience }) => planRank(body, audience));
        const reuses = body.reuse_evaluations ? await planReuse(opts.kept, app.imageIntake, caller.accountId, plans) : plans.map(() => null);
        const audiences = named.map(({ audience, audienceId }, k) => ({ name: audience.name, audienceId, plan: plans[k]!, reuse: reuses[k] ?? null }));
        const most = audiences.reduce((sum, a) => sum + a.plan.maxEvaluations, 0);
        const plan: RankAudiencesPlan = { audiences, maxEvaluations: most, units: reservedUnits(most, reuses) };
        return {
          plan,
          units: plan.units,
          // Each image is fetched once, however many audiences judge it.
          fetches: fetchedUrlsOf(body.assets.map((a) => a.url)),
          total: body.assets.length * audiences.length,
          async: body.async,
          webhookUrl: body.webhook_url,
        };
      }),

    async run(plan, { requestId, caller, workDeadline, stop, stoppedBy, onProgress, traceparent, log }) {
      const stopReason = stopReasonOf(stoppedBy, opts.timeoutMs);
      const assets = plan.audiences[0]!.plan.assets;
      const outcomes = plan.audiences.map((): Array<AssetOutcome | undefined> => new Array(assets.length));
      let done = 0;
      const tally = createDispatchTally();
      stop.addEventListener("abort", () => tally.freeze(), { once: true });
      const preparations = prepareAhead(app, assets, opts.assetConcurrency, stop, stopReason, log);
      const usage = (batches: ReadonlyArray<RankedBatch | null>) => mergeModelUsage(plan.audiences.map((_, k) => modelUsageOfRank(outcomes[k]!, batches[k]?.refinement ?? null)));
      // Every audience runs to its end before anything is answered or thrown: none is left publishing behind a failure.
      const settled = await Promise.allSettled(
        plan.audiences.map((audience, k) =>
          rankBatch(app.bus, audience.plan, {
            // Job ids are unique per bus id and jobs carry a uuid: each audience's batch gets one of its own.
            busId: randomUUID(),
            workDeadline,
            stop,
            stopReason,
            tally,
            preparations,
            assetConcurrency: opts.assetConcurrency,
            outcomes: outcomes[k]!,
            onAssetDone: () => onProgress(++done),
            refiner: opts.refiner,
            keeping: assetKeeping(opts.kept, caller.accountId, audience.reuse),
            traceparent,
            log: log.child({ audience: k }),
          }),
        ),
      );
      const failed = settled.find((s) => s.status === "rejected");
      if (failed) {
        const batches = settled.map((s) => (s.status === "fulfilled" ? s.value : null));
        throw new UnfinishedWork(failed.reason, { unitsUsed: stoppedBy() === "client" ? tally.billedWhenClientLeft(plan.units) : 0, modelUsage: usage(batches) });
      }
      const batches = settled.map((s) => (s as PromiseFulfilledResult<RankedBatch>).value);
      const billed = batches.reduce((sum, b) => sum + b.batch.billedEvaluations, 0);
      return {
        unitsUsed: stoppedBy() === "client" ? tally.billedWhenClientLeft(plan.units) : billed,
        modelUsage: usage(batches),
        answer: (settlement) => {
          app.gatewayMetrics.billed.inc({ kind: "scoring" }, settlement.units);
          return assembleRankAudiencesResponse({
            requestId,
            assets: assets.map((a) => ({ index: a.index, url: a.url, assetId: a.assetId })),
            audiences: plan.audiences.map((audience, k) => ({
              name: audience.name,
              audienceId: audience.audienceId,
              plan: audience.plan,
              refinement: batches[k]!.refinement,
              errors: batches[k]!.batch.errors,
              units: batches[k]!.batch.billedEvaluations,
            })),
            settlement,
          });
        },
      };
    },
  };
}
