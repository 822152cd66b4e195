import type { ImageRef } from "@adrank/bus-contracts";
import { inSpan } from "@adrank/telemetry";

/** The part of @adrank/images the gateway uses: one intake per image. */
export interface ImageIntake {
  intake(
    url: string,
    signal?: AbortSignal,
  ): Promise<
    | { ok: true; image: { ref: string; bytes: Uint8Array; mime: ImageRef["mime"]; width: number; height: number; hasVisualContent: boolean } }
    | { ok: false; error: string }
  >;
}

export interface PreparationLogger {
  error(obj: object, msg?: string): void;
}

export interface ImagePreparationContext {
  /** Fires at the deadline or when the client leaves. */
  signal: AbortSignal;
  /** The sentence an image gets when `signal` has fired. */
  stopReason(): string;
  intake: ImageIntake;
  storeImage(ref: string, bytes: Uint8Array): Promise<void>;
  log: PreparationLogger;
}

export type PreparedImage =
  | { ok: true; image: ImageRef & { hasVisualContent: boolean }; intakeMs: number; storeMs: number }
  | { ok: false; error: string };

/**
 * Prepares one image (fetch or decode, check, normalize) and stores it by content hash for
 * the workers. Rank and pairwise both start these ahead of their work, so intake is off the
 * critical path. Every failure becomes a sentence for the caller; nothing is thrown.
 * `index` only labels the logs.
 */
export function prepareImage(image: { index: number; url: string }, ctx: ImagePreparationContext): Promise<PreparedImage> {
  return inSpan("prepare image", { attributes: { "adrank.asset_index": image.index } }, () => prepare(image, ctx));
}

async function prepare(image: { index: number; url: string }, ctx: ImagePreparationContext): Promise<PreparedImage> {
  const { log } = ctx;
  const failed = (error: string): PreparedImage => ({ ok: false, error });
  if (ctx.signal.aborted) return failed(ctx.stopReason());
  const started = performance.now();

  let prepared: Awaited<ReturnType<ImageIntake["intake"]>>;
  try {
    prepared = await ctx.intake.intake(image.url, ctx.signal);
  } catch (err) {
    if (ctx.signal.aborted) return failed(ctx.stopReason());
    log.error({ err, asset: image.index }, "image intake failed unexpectedly");
    return failed("The image could not be prepared.");
  }
  if (!prepared.ok) return failed(ctx.signal.aborted ? ctx.stopReason() : asSentence(prepared.error));
  const intakeDone = performance.now();

  try {
    await ctx.storeImage(prepared.image.ref, prepared.image.bytes);
  } catch (err) {
    log.error({ err, asset: image.index }, "storing the prepared image failed");
    return failed("The image could not be stored; please retry.");
  }
  const { ref, mime, width, height, hasVisualContent } = prepared.image;
  return { ok: true, image: { ref, mime, width, height, hasVisualContent }, intakeMs: Math.round(intakeDone - started), storeMs: Math.round(performance.now() - intakeDone) };
}

/** What a job carries of a prepared image: its reference in the store, never its bytes. */
export function imageRefOf(image: ImageRef): ImageRef {
  return { ref: image.ref, mime: image.mime, width: image.width, height: image.height };
}

/** Intake refusals are sentence fragments; the response's `errors` read as sentences. */
export function asSentence(text: string): string {
  const t = text.trim();
  if (t === "") return "The image could not be prepared.";
  const capitalized = t[0]!.toUpperCase() + t.slice(1);
  return /[.!?]$/.test(capitalized) ? capitalized : `${capitalized}.`;
}
