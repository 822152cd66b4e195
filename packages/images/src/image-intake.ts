import { createHash } from "node:crypto";
import { ByteLru } from "./byte-lru.ts";
import { decodeImageDataUri, isDataUri } from "./data-uri.ts";
import { fetchHttpsImage } from "./fetch-https-image.ts";
import { describeBytes, sniffImageFormat, type ImageFormat } from "./image-format.ts";
import { IntakeRefusal, intakeFailure, isIntakeRefusal, type IntakeFailure } from "./intake-refusal.ts";
import { prepareImage, type PreparedImage } from "./prepare-image.ts";
import { lookupHostAddresses, type HostResolver } from "./resolve-host.ts";

export interface ImageIntakeOptions {
  /** Bounds getting the bytes: DNS, connections, redirects and download together. Default 10 s. */
  timeoutMs?: number;
  /** Largest image accepted, fetched or decoded from a data URI. Default 10 MiB. */
  maxBytes?: number;
  /** Redirects followed; one more is refused. Default 3. */
  maxRedirects?: number;
  /** Largest width x height decoded (one frame). Default 40 megapixels. */
  maxInputPixels?: number;
  /** TEST-ONLY: allow 127.0.0.0/8 and ::1 (on any port). Never in production. */
  allowLoopback?: boolean;
  /** Default: the system resolver. */
  resolver?: HostResolver;
  /** An extra trusted CA certificate (PEM), for tests with a self-signed server. */
  ca?: string | Buffer;
  /** Where configuration warnings and unexpected internal failures are reported. */
  onWarning?: (message: string) => void;
  /** Budget of the prepared-image cache. Default 256 MiB; 0 disables it. */
  cacheBytes?: number;
}

export type IntakeResult = { ok: true; image: PreparedImage } | IntakeFailure;

export interface ImageIntake {
  /**
   * Takes in an image from an `https://` URL or a `data:image/...;base64,` URI. Never throws:
   * every failure is a result with one sentence for the API user.
   */
  intake(url: string, signal?: AbortSignal): Promise<IntakeResult>;
  /** Figures for metrics. */
  cacheStats(): { entries: number; bytes: number; hits: number; misses: number };
}

const DEFAULTS = {
  timeoutMs: 10_000,
  maxBytes: 10 * 1024 * 1024,
  maxRedirects: 3,
  maxInputPixels: 40_000_000,
  cacheBytes: 256 * 1024 * 1024,
};

export const LOOPBACK_WARNING = "image intake allows loopback addresses: test setting, never in production";

// Counts a cache entry's bookkeeping along with its bytes.
const ENTRY_OVERHEAD = 512;

type Source = { bytes: Buffer; format: ImageFormat };

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(2))} s`;
}

/**
 * Creates the intake with its cache of prepared images, keyed by the sha256 of the source
 * bytes. Keep one per process: the same picture sent twice is decoded once.
 *
 * @example
 * const images = createImageIntake();
 * const result = await images.intake("https://cdn.example.com/ad.png", request.signal);
 * if (!result.ok) errors.push({ asset_id, error: result.error });
 */
export function createImageIntake(options: ImageIntakeOptions = {}): ImageIntake {
  const settings = checkedSettings(options);
  const allowLoopback = options.allowLoopback === true;
  const resolver = options.resolver ?? lookupHostAddresses;
  const warn = options.onWarning ?? ((message: string) => console.warn(message));
  if (allowLoopback) warn(LOOPBACK_WARNING);

  const cache = new ByteLru<PreparedImage>(settings.cacheBytes, (image) => image.bytes.byteLength + ENTRY_OVERHEAD);
  const inFlight = new Map<string, Promise<IntakeResult>>();
  let hits = 0;
  let misses = 0;

  async function acquire(input: string, signal: AbortSignal): Promise<Source | IntakeFailure> {
    if (isDataUri(input)) return decodeImageDataUri(input, settings.maxBytes);
    const bytes = await fetchHttpsImage(input, {
      maxBytes: settings.maxBytes,
      maxRedirects: settings.maxRedirects,
      allowLoopback,
      resolver,
      signal,
      ...(options.ca === undefined ? {} : { ca: options.ca }),
    });
    const format = sniffImageFormat(bytes);
    if (!format) {
      return intakeFailure("not-an-image", `the image URL did not return a PNG, JPEG, WebP or GIF image: the bytes are ${describeBytes(bytes)}`);
    }
    return { bytes, format };
  }

  function prepare(source: Source): Promise<IntakeResult> {
    const key = createHash("sha256").update(source.bytes).digest("hex");
    const cached = cache.get(key);
    if (cached) {
      hits++;
      return Promise.resolve({ ok: true, image: cached });
    }
    const pending = inFlight.get(key);
    if (pending) return pending;
    misses++;
    const work = prepareImage(source.bytes, source.format, settings.maxInputPixels).then((result) => {
      if (result.ok) cache.set(key, result.image);
      return result;
    });
    inFlight.set(key, work);
    return work.finally(() => inFlight.delete(key));
  }

  async function intake(url: string, signal?: AbortSignal): Promise<IntakeResult> {
    const cancelled = () => new IntakeRefusal("cancelled", "the image intake was cancelled");
    if (signal?.aborted) return intakeFailure("cancelled", cancelled().message);
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new IntakeRefusal("timed-out", `the image did not arrive within ${seconds(settings.timeoutMs)}`)),
      settings.timeoutMs,
    );
    const onCancel = () => deadline.abort(cancelled());
    signal?.addEventListener("abort", onCancel, { once: true });
    try {
      const source = await acquire(url.trim(), deadline.signal);
      clearTimeout(timer);
      if (!("bytes" in source)) return source;
      return await prepare(source);
    } catch (err) {
      if (isIntakeRefusal(err)) return intakeFailure(err.kind, err.message);
      warn(`image intake failed unexpectedly: ${err instanceof Error ? err.message : String(err)}`);
      return intakeFailure("internal", "the image could not be prepared because of an internal error");
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onCancel);
    }
  }

  return {
    intake,
    cacheStats: () => ({ entries: cache.size, bytes: cache.bytes, hits, misses }),
  };
}

/**
 * One intake without a cache; prefer {@link createImageIntake} in a long-lived process.
 * @example const result = await intakeImage("data:image/png;base64,iVBORw0...");
 */
export function intakeImage(url: string, options: ImageIntakeOptions & { signal?: AbortSignal } = {}): Promise<IntakeResult> {
  const { signal, ...rest } = options;
  return createImageIntake({ ...rest, cacheBytes: 0 }).intake(url, signal);
}

// Zero redirects or no cache are sensible settings; a zero time or size limit is a mistake.
const MAY_BE_ZERO = new Set<string>(["maxRedirects", "cacheBytes"]);

/** A bad limit is a programming error: it stops start-up rather than weakening a check. */
function checkedSettings(options: ImageIntakeOptions): typeof DEFAULTS {
  const settings = { ...DEFAULTS };
  for (const name of Object.keys(DEFAULTS) as (keyof typeof DEFAULTS)[]) {
    const value = options[name];
    if (value === undefined) continue;
    const least = MAY_BE_ZERO.has(name) ? 0 : 1;
    if (!Number.isSafeInteger(value) || value < least) {
      throw new RangeError(`image intake option ${name} must be an integer of at least ${least}, got ${value}`);
    }
    settings[name] = value;
  }
  return settings;
}
