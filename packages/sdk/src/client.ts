import type { z } from "zod";
import type { CreateAudienceRequest, PairwiseRequest, RankRequest } from "@adrank/contracts";
import { AudienceList, PairwiseResponse, RankResponse, SavedAudience } from "@adrank/contracts";
import { errorFromResponse } from "./error-from-response.ts";
import { AdRankError, ConnectionError, TimeoutError, UnexpectedResponseError } from "./errors.ts";
import { DEFAULT_RETRY_POLICY, retryDelayMs, type RetryPolicy } from "./retry-policy.ts";

export interface ClientOptions {
  apiKey: string;
  /** Where the API lives, e.g. `https://api.example.com` (no `/api/v1`). */
  baseUrl: string;
  /** Time limit of one attempt. Default 130 s: the server ends a rank request at 120 s. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Called before each wait for a retry: for logs and progress displays. */
  onRetry?: (event: RetryEvent) => void;
  /** A fetch implementation (tests, proxies); the global one by default. */
  fetch?: typeof fetch;
}

export interface RetryEvent {
  /** The retry about to be made: 1 for the first. */
  retry: number;
  delayMs: number;
  error: AdRankError;
}

export interface CallOptions {
  /** Aborting rejects the call with the signal's reason, also while it waits to retry. */
  signal?: AbortSignal;
  /** This call's retry policy, over the client's (e.g. `{ maxElapsedMs: 10_000 }`). */
  retry?: Partial<RetryPolicy>;
}

/** A successful call: the parsed body and the headers worth keeping. */
export interface ApiResult<T> {
  data: T;
  requestId: string | null;
  /** Scoring evaluations left in the key's window (rank only), from `X-RateLimit-Remaining`. */
  rateLimitRemaining: number | null;
  /** Attempts made, retries included. */
  attempts: number;
}

export type RankInput = z.input<typeof RankRequest>;
export type PairwiseInput = z.input<typeof PairwiseRequest>;
export type CreateAudienceInput = z.input<typeof CreateAudienceRequest>;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    // The listener goes when the wait ends: one long-lived signal may serve many calls.
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

function parseBody(text: string, contentType: string): unknown {
  if (contentType.includes("json") && text !== "") {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

// fetch says only "fetch failed"; the reason a person can act on (ECONNREFUSED, a DNS
// failure, a bad certificate) is in its cause.
const networkReason = (err: unknown): string => {
  const cause = err instanceof Error ? err.cause : undefined;
  if (cause instanceof Error && cause.message) return cause.message;
  return err instanceof Error ? err.message : String(err);
};

const bodyRequestId = (body: unknown): string | null => {
  const id = typeof body === "object" && body !== null ? (body as { request_id?: unknown }).request_id : undefined;
  return typeof id === "string" ? id : null;
};

/**
 * The adrank API client.
 *
 * @example
 * const adrank = createClient({ apiKey: process.env.ADRANK_API_KEY!, baseUrl: process.env.ADRANK_BASE_URL! });
 * const { data } = await adrank.rank({ assets: [{ url: await imageFileToDataUri("a.png") }, { url: "https://cdn.example.com/b.png" }], audience: { name: "Runners" } });
 */
export function createClient(options: ClientOptions) {
  if (!options.apiKey) throw new TypeError("createClient: apiKey is required");
  const base = new URL(options.baseUrl);
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const timeoutMs = options.timeoutMs ?? 130_000;
  const doFetch = options.fetch ?? globalThis.fetch;

  async function attempt<T>(method: string, path: string, body: unknown, schema: z.ZodType<T>, signal: AbortSignal | undefined, limitMs: number): Promise<ApiResult<T>> {
    const timeout = AbortSignal.timeout(limitMs);
    const headers: Record<string, string> = { authorization: `Bearer ${options.apiKey}`, accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    let res: Response;
    let text: string;
    // The body is read inside the same guard: a timeout or a cut connection mid-body is the
    // same failure as one before the headers, and is retried the same way.
    try {
      res = await doFetch(new URL(path, base), { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
      text = await res.text();
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      const details = { status: 0, requestId: null, body: null };
      if (timeout.aborted) throw new TimeoutError(`No response within ${limitMs} ms.`, details, { cause: err });
      throw new ConnectionError(`Could not reach ${base.origin}: ${networkReason(err)}`, details, { cause: err });
    }
    const parsed = parseBody(text, res.headers.get("content-type") ?? "");
    if (!res.ok) throw errorFromResponse(res.status, res.headers, parsed);
    const requestId = res.headers.get("x-request-id") ?? bodyRequestId(parsed);
    const checked = schema.safeParse(parsed);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
      throw new UnexpectedResponseError(`The ${res.status} response does not match the API contract${where}: ${issue?.message ?? "invalid"}.`, { status: res.status, requestId, body: parsed });
    }
    const remaining = res.headers.get("x-ratelimit-remaining");
    return { data: checked.data, requestId, rateLimitRemaining: remaining === null ? null : Number(remaining), attempts: 1 };
  }

  async function call<T>(method: string, path: string, body: unknown, schema: z.ZodType<T>, callOptions: CallOptions = {}): Promise<ApiResult<T>> {
    const callPolicy: RetryPolicy = { ...policy, ...callOptions.retry };
    const started = performance.now();
    for (let n = 0; ; n++) {
      const elapsed = performance.now() - started;
      try {
        const limitMs = Math.max(1, Math.min(timeoutMs, callPolicy.maxElapsedMs - elapsed));
        const result = await attempt(method, path, body, schema, callOptions.signal, Math.round(limitMs));
        return { ...result, attempts: n + 1 };
      } catch (err) {
        if (!(err instanceof AdRankError)) throw err;
        const delayMs = retryDelayMs(err, n, performance.now() - started, callPolicy);
        if (delayMs === null) throw err;
        options.onRetry?.({ retry: n + 1, delayMs, error: err });
        await sleep(delayMs, callOptions.signal);
      }
    }
  }

  return {
    /** POST /api/v1/rank: scores and ranks 1 to 20 creatives for one audience. */
    rank: (request: RankInput, callOptions?: CallOptions) => call("POST", "/api/v1/rank", request, RankResponse, callOptions),
    /** POST /api/v1/pairwise: 1 to 10 pairs, each judged by a panel of five blinded voters. */
    pairwise: (request: PairwiseInput, callOptions?: CallOptions) => call("POST", "/api/v1/pairwise", request, PairwiseResponse, callOptions),
    audiences: {
      /** GET /api/v1/audiences: the account's saved audiences. */
      list: (callOptions?: CallOptions) => call("GET", "/api/v1/audiences", undefined, AudienceList, callOptions),
      /** POST /api/v1/audiences: saves an audience; use its `id` as `audience_id`. */
      create: (audience: CreateAudienceInput, callOptions?: CallOptions) => call("POST", "/api/v1/audiences", audience, SavedAudience, callOptions),
    },
  };
}

export type AdRankClient = ReturnType<typeof createClient>;
