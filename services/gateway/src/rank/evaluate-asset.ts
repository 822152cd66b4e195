import type { ImageRef, ScoreJob } from "@adrank/bus-contracts";
import type { ScoreLayer } from "@adrank/contracts";
import { layersFor, type AssetOutcome, type AssetPlan, type EvaluationOutcome } from "@adrank/rank-assembly";
import type { ResultJoin } from "./result-join.ts";

/** The part of @adrank/images the gateway uses: one intake per asset. */
export interface AssetImageIntake {
  intake(
    url: string,
    signal?: AbortSignal,
  ): Promise<
    | { ok: true; image: { ref: string; bytes: Uint8Array; mime: ImageRef["mime"]; width: number; height: number; hasVisualContent: boolean } }
    | { ok: false; error: string }
  >;
}

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
  intake: AssetImageIntake;
  storeImage(ref: string, bytes: Uint8Array): Promise<void>;
  publish(job: ScoreJob): Promise<void>;
  join: ResultJoin;
  log: AssetLogger;
}

/** What preparing an image needs; the pairwise operation prepares its images the same way. */
export type ImagePreparationContext = Pick<EvaluateAssetContext, "signal" | "stopReason" | "intake" | "storeImage" | "log">;

const LAYER_CODE: Record<ScoreLayer, string> = { "full-ad-package": "full", "image-only": "image", "copy-only": "copy" };

/** Job ids are unique across requests (they double as Nats-Msg-Id) and safe as subject tokens. */
export function jobIdOf(requestId: string, assetIndex: number, layer: ScoreLayer): string {
  return `${requestId}_${assetIndex}_${LAYER_CODE[layer]}`;
}

export type PreparedAsset =
  | { ok: true; image: { ref: string; mime: ImageRef["mime"]; width: number; height: number; hasVisualContent: boolean }; intakeMs: number; storeMs: number }
  | { ok: false; outcome: AssetOutcome };

/**
 * Prepares an asset's image once (fetch or decode, check, normalize) and stores it by
 * content hash. Runs ahead of the evaluation slots, so a slot that frees up finds the next
 * image ready. Every failure becomes the asset's error sentence; nothing is thrown.
 */
export async function prepareAssetImage(asset: Pick<AssetPlan, "index" | "url">, ctx: ImagePreparationContext): Promise<PreparedAsset> {
  const { log } = ctx;
  const failed = (error: string): PreparedAsset => ({ ok: false, outcome: { kind: "failed", error } });
  if (ctx.signal.aborted) return failed(ctx.stopReason());
  const started = performance.now();

  let prepared: Awaited<ReturnType<AssetImageIntake["intake"]>>;
  try {
    prepared = await ctx.intake.intake(asset.url, ctx.signal);
  } catch (err) {
    if (ctx.signal.aborted) return failed(ctx.stopReason());
    log.error({ err, asset: asset.index }, "image intake failed unexpectedly");
    return failed("The image could not be prepared.");
  }
  if (!prepared.ok) return failed(ctx.signal.aborted ? ctx.stopReason() : asSentence(prepared.error));
  const { image } = prepared;
  const intakeDone = performance.now();

  try {
    await ctx.storeImage(image.ref, image.bytes);
  } catch (err) {
    log.error({ err, asset: asset.index }, "storing the prepared image failed");
    return failed("The image could not be stored; please retry.");
  }
  return {
    ok: true,
    image: { ref: image.ref, mime: image.mime, width: image.width, height: image.height, hasVisualContent: image.hasVisualContent },
    intakeMs: Math.round(intakeDone - started),
    storeMs: Math.round(performance.now() - intakeDone),
  };
}

/**
 * One asset inside its evaluation slot: wait for its prepared image, then run its one or two
 * evaluations at the same time and wait for their results. Nothing is thrown.
 */
export async function evaluateAsset(asset: AssetPlan, ctx: EvaluateAssetContext, preparation: Promise<PreparedAsset>): Promise<AssetOutcome> {
  const { log } = ctx;
  const prepared = await preparation;
  if (!prepared.ok) return prepared.outcome;
  if (ctx.signal.aborted) return { kind: "failed", error: ctx.stopReason() };
  const { image } = prepared;
  const stored = performance.now();

  const ref: ImageRef = { ref: image.ref, mime: image.mime, width: image.width, height: image.height };
  const layers = layersFor(asset, image);
  const outcomes = await Promise.all(
    layers.map((layer): Promise<EvaluationOutcome> => {
      const job: ScoreJob = {
        requestId: ctx.requestId,
        jobId: jobIdOf(ctx.requestId, asset.index, layer),
        deadline: ctx.deadline,
        layer,
        image: ref,
        copy: layer === "image-only" ? null : asset.copy,
        persona: asset.persona,
      };
      const result = ctx.join.expect(job.jobId);
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

/** Intake refusals are sentence fragments; the response's `errors` read as sentences. */
export function asSentence(text: string): string {
  const t = text.trim();
  if (t === "") return "The image could not be prepared.";
  const capitalized = t[0]!.toUpperCase() + t.slice(1);
  return /[.!?]$/.test(capitalized) ? capitalized : `${capitalized}.`;
}
