import type { ScoreJob } from "@adrank/bus-contracts";
import type { ScoreLayer } from "@adrank/contracts";
import { layersFor, type AssetOutcome, type AssetPlan, type EvaluationOutcome } from "@adrank/rank-assembly";
import { imageRefOf, type PreparedImage } from "../shared/prepare-image.ts";
import type { ScoreResults } from "./score-results.ts";
import { askedOf, type AssetKeeping } from "./evaluation-reuse.ts";

export interface AssetLogger {
  debug(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface EvaluateAssetContext {
  requestId: string;
  /** Epoch ms at which workers drop the jobs and the join stops waiting. */
  deadline: number;
  /** Fires at the deadline or when the client leaves. */
  signal: AbortSignal;
  stopReason(): string;
  publish(job: ScoreJob): Promise<void>;
  join: ScoreResults;
  /** Kept evaluations to use instead of jobs (reuse_evaluations), and where new ones are kept. */
  keeping: AssetKeeping;
  log: AssetLogger;
}

const LAYER_CODE: Record<ScoreLayer, string> = { "full-ad-package": "full", "image-only": "image", "copy-only": "copy" };

/** Job ids are unique across requests (they double as Nats-Msg-Id) and safe as subject tokens. */
export function jobIdOf(requestId: string, assetIndex: number, layer: ScoreLayer): string {
  return `${requestId}_${assetIndex}_${LAYER_CODE[layer]}`;
}

/**
 * One asset inside its evaluation slot: wait for its prepared image, then run its one or two
 * evaluations at the same time and wait for their results. Nothing is thrown.
 */
export async function evaluateAsset(asset: AssetPlan, ctx: EvaluateAssetContext, preparation: Promise<PreparedImage>): Promise<AssetOutcome> {
  const { log } = ctx;
  const prepared = await preparation;
  if (!prepared.ok) return { kind: "failed", error: prepared.error };
  if (ctx.signal.aborted) return { kind: "failed", error: ctx.stopReason() };
  const { image } = prepared;
  const stored = performance.now();

  const ref = imageRefOf(image);
  const layers = layersFor(asset, image);
  // An evaluation kept from an earlier request of the account takes the place of its job.
  const reusable = await ctx.keeping.reusable(asset.index, layers.map((layer) => askedOf(asset, ref, layer)));
  const outcomes = await Promise.all(
    layers.map((layer, i): Promise<EvaluationOutcome> => {
      const kept = reusable[i];
      if (kept) return Promise.resolve({ ok: true, evaluation: kept, reused: true });
      const job: ScoreJob = {
        requestId: ctx.requestId,
        jobId: jobIdOf(ctx.requestId, asset.index, layer),
        deadline: ctx.deadline,
        ...askedOf(asset, ref, layer),
      };
      const result = ctx.join.expect(job.jobId).then((outcome) => {
        if (outcome.ok) ctx.keeping.keep(job, outcome.evaluation);
        return outcome;
      });
      ctx.publish(job).catch((err: unknown) => {
        log.error({ err, jobId: job.jobId }, "publishing a score job failed");
        ctx.join.fail(job.jobId, "The asset could not be queued for scoring; please retry.");
      });
      return result;
    }),
  );
  const [primary, ablation] = outcomes;
  // Where an asset's time goes, for latency work: intake, image store, evaluations.
  log.debug(
    { asset: asset.index, intakeMs: prepared.intakeMs, storeMs: prepared.storeMs, evaluateMs: Math.round(performance.now() - stored), layers },
    "asset evaluated",
  );
  return { kind: "evaluated", layer: layers[0], primary: primary!, ablation: ablation ?? null };
}
