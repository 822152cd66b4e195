import type { z } from "zod";
import type { AudienceItem, CalibrationQuery, CreateAudienceRequest, PairwiseRequest, RankAudiencesRequest, RankRequest, RecordOutcomesRequest } from "@adrank/contracts";
import { AudienceList, CalibrationResponse, IDEMPOTENCY_KEY_HEADER, PairwiseResponse, RankAudiencesResponse, RankResponse, RecordOutcomesResponse, RequestStatus, SavedAudience } from "@adrank/contracts";
import { errorFromResponse, parseRetryAfter } from "./error-from-response.ts";
import { cleartextKeyProblem } from "./cleartext-key.ts";
import { AdRankError, ConnectionError, TimeoutError, UnexpectedResponseError } from "./errors.ts";
import { idempotencyKeyFor } from "./idempotency-key.ts";
import { parseResponse } from "./parse-response.ts";
import { requestOutcomeOf } from "./request-outcome.ts";
import { DEFAULT_RETRY_POLICY, retryDelayMs, type RetryPolicy } from "./retry-policy.ts";
import { sleep } from "./sleep.ts";
import { waitForResult, type WaitOptions } from "./wait-for-result.ts";

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
  /**
   * Sends the key over plain http:// to a host other than this machine, e.g. a gateway's
   * in-cluster address on a network you control. Default false: the client refuses, because
   * anyone on the path could read the key.
   */
  allowInsecureHttp?: boolean;
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

/** Options of a rank, pairwise or rankAcrossAudiences call: the POSTs that run (and bill) work. */
export interface IdempotentCallOptions extends CallOptions {
  /**
   * Sent as `Idempotency-Key` (1 to 255 visible ASCII characters; a UUID is a good choice).
   * The same key with the same body within 24 h gets the first answer again, never a second
   * run or bill: keep it to retry after the call itself gave up. Without one, a call that may
   * be retried gets a fresh UUID, the same on each of its retries.
   */
  idempotencyKey?: string;
}

/** Options of `rankAsync`, `pairwiseAsync` and `rankAcrossAudiencesAsync`. */
export interface AsyncCallOptions extends IdempotentCallOptions {
  /** Sent as `webhook_url` (https, public): the result is POSTed there, signed, when the request finishes. */
  webhookUrl?: string;
}

/** A successful call: the parsed body and the headers worth keeping. */
export interface ApiResult<T> {
  data: T;
  requestId: string | null;
  /** Scoring evaluations left in the rate window (rank only), from `X-RateLimit-Remaining`: the smaller of the key's and the account's room. */
  rateLimitRemaining: number | null;
  /** Attempts made, retries included. */
  attempts: number;
  /** The `Idempotency-Key` the call sent (yours, or the one made for its retries); null when it sent none. */
  idempotencyKey: string | null;
  /** True for a stored answer replayed for a repeated `Idempotency-Key` (`Idempotent-Replayed: true`): the work ran, and was billed, once. */
  replayed: boolean;
  /** The server's `Retry-After` in seconds, when it sent one (a 202: when to look at the request again). */
  retryAfter: number | null;
}

export type RankInput = z.input<typeof RankRequest>;
export type PairwiseInput = z.input<typeof PairwiseRequest>;
/** The body of `rankAcrossAudiences`: the assets once, and 2 to 5 audiences. */
export type RankAudiencesInput = z.input<typeof RankAudiencesRequest>;
/** One audience of `rankAcrossAudiences`: `{ audience_id }` of a saved one, or an inline `{ name, description?, demographics? }`. */
export type AudienceItemInput = z.input<typeof AudienceItem>;
export type CreateAudienceInput = z.input<typeof CreateAudienceRequest>;
export type RecordOutcomesInput = z.input<typeof RecordOutcomesRequest>;
export type CalibrationQueryInput = z.input<typeof CalibrationQuery>;

/** `?metric=…&goal=…` of the parameters given, or "" when there are none. */
const queryString = (query: Record<string, string | undefined>): string => {
  const given = Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return given.length === 0 ? "" : `?${new URLSearchParams(given).toString()}`;
};

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

/** One endpoint: what to send, and how to read its 2xx (status, request id, parsed body). */
interface Endpoint<T> {
  method: "GET" | "POST";
  path: string;
  body?: unknown;
  /** A POST that runs and bills work: it carries an Idempotency-Key so that retrying it is safe. */
  idempotent?: boolean;
  read: (status: number, requestId: string | null, body: unknown) => T;
}

const withSchema =
  <T>(schema: z.ZodType<T>) =>
  (status: number, requestId: string | null, body: unknown): T =>
    parseResponse(schema, status, requestId, body);

// An asynchronous POST answers 202 with the request's status; anything else means the server
// ran it synchronously (or is not this version) and the caller would wait for nothing.
const accepted = (status: number, requestId: string | null, body: unknown) => {
  if (status !== 202) throw new UnexpectedResponseError(`The ${status} response should have been 202 Accepted for an asynchronous request.`, { status, requestId, body });
  return parseResponse(RequestStatus, status, requestId, body);
};

// "async": true makes the server answer a status, which rank()'s result type would not hold.
const synchronous = <B extends { async?: boolean }>(method: string, body: B): B => {
  if (body.async === true) throw new TypeError(`${method}: a request with "async": true answers 202 with its status, not its result; use ${method}Async`);
  return body;
};

const asynchronous = <B extends object>(body: B, callOptions: AsyncCallOptions) => ({ ...body, async: true, ...(callOptions.webhookUrl !== undefined ? { webhook_url: callOptions.webhookUrl } : {}) });

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
  const cleartext = cleartextKeyProblem(base, options.allowInsecureHttp);
  if (cleartext) throw new TypeError(`createClient: ${cleartext}; or pass allowInsecureHttp: true for a network you trust`);
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const timeoutMs = options.timeoutMs ?? 130_000;
  const doFetch = options.fetch ?? globalThis.fetch;

  async function attempt<T>(endpoint: Endpoint<T>, idempotencyKey: string | null, signal: AbortSignal | undefined, limitMs: number): Promise<Omit<ApiResult<T>, "attempts">> {
    const { method, path, body } = endpoint;
    const timeout = AbortSignal.timeout(limitMs);
    const headers: Record<string, string> = { authorization: `Bearer ${options.apiKey}`, accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (idempotencyKey !== null) headers[IDEMPOTENCY_KEY_HEADER] = idempotencyKey;
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
    const remaining = res.headers.get("x-ratelimit-remaining");
    return {
      data: endpoint.read(res.status, requestId, parsed),
      requestId,
      rateLimitRemaining: remaining === null ? null : Number(remaining),
      idempotencyKey,
      replayed: res.headers.get("idempotent-replayed") === "true",
      retryAfter: parseRetryAfter(res.headers.get("retry-after")),
    };
  }

  async function call<T>(endpoint: Endpoint<T>, callOptions: IdempotentCallOptions = {}): Promise<ApiResult<T>> {
    const callPolicy: RetryPolicy = { ...policy, ...callOptions.retry };
    // Chosen once per call, so every retry of it carries the same key and is never billed twice.
    const idempotencyKey = endpoint.idempotent ? idempotencyKeyFor(callOptions.idempotencyKey, callPolicy.maxRetries > 0) : null;
    const started = performance.now();
    for (let n = 0; ; n++) {
      const elapsed = performance.now() - started;
      try {
        const limitMs = Math.max(1, Math.min(timeoutMs, callPolicy.maxElapsedMs - elapsed));
        const result = await attempt(endpoint, idempotencyKey, callOptions.signal, Math.round(limitMs));
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

  const getRequest = (requestId: string, callOptions?: CallOptions) => call({ method: "GET", path: `/api/v1/requests/${encodeURIComponent(requestId)}`, read: requestOutcomeOf }, callOptions);

  return {
    /** POST /api/v1/rank: scores and ranks 1 to 20 creatives for one audience. */
    rank: async (request: RankInput, callOptions?: IdempotentCallOptions) => call({ method: "POST", path: "/api/v1/rank", body: synchronous("rank", request), idempotent: true, read: withSchema(RankResponse) }, callOptions),
    /** POST /api/v1/pairwise: 1 to 10 pairs, each judged by a panel of five blinded voters. */
    pairwise: async (request: PairwiseInput, callOptions?: IdempotentCallOptions) =>
      call({ method: "POST", path: "/api/v1/pairwise", body: synchronous("pairwise", request), idempotent: true, read: withSchema(PairwiseResponse) }, callOptions),
    /**
     * POST /api/v1/rank/audiences: one set of 1 to 20 creatives ranked for 2 to 5 audiences.
     * `by_audience` holds, per audience, exactly the ranking `rank` would answer for it alone;
     * `comparison`, `reversals` and `audience_sensitivity` say where the audiences disagree
     * (and where a persona made no difference). Idempotent like `rank`.
     */
    rankAcrossAudiences: async (request: RankAudiencesInput, callOptions?: IdempotentCallOptions) =>
      call({ method: "POST", path: "/api/v1/rank/audiences", body: synchronous("rankAcrossAudiences", request), idempotent: true, read: withSchema(RankAudiencesResponse) }, callOptions),
    /** POST /api/v1/rank with `async: true`: 202 at once with the request's status; then `waitForResult` or `getRequest`. */
    rankAsync: (request: RankInput, callOptions: AsyncCallOptions = {}) => call({ method: "POST", path: "/api/v1/rank", body: asynchronous(request, callOptions), idempotent: true, read: accepted }, callOptions),
    /** POST /api/v1/pairwise with `async: true`: 202 at once with the request's status. */
    pairwiseAsync: (request: PairwiseInput, callOptions: AsyncCallOptions = {}) => call({ method: "POST", path: "/api/v1/pairwise", body: asynchronous(request, callOptions), idempotent: true, read: accepted }, callOptions),
    /** POST /api/v1/rank/audiences with `async: true`: 202 at once with the request's status (`operation: "rank_audiences"`, progress counted per asset and audience). */
    rankAcrossAudiencesAsync: (request: RankAudiencesInput, callOptions: AsyncCallOptions = {}) =>
      call({ method: "POST", path: "/api/v1/rank/audiences", body: asynchronous(request, callOptions), idempotent: true, read: accepted }, callOptions),
    /**
     * GET /api/v1/requests/{request_id}: the result of a succeeded request (`operation` says
     * which), else its status, `running` or `failed`. An unknown id is a `NotFoundError`.
     */
    getRequest,
    /**
     * Looks at an asynchronous request until it finishes and resolves its result (a rank result
     * has `ranked`, a pairwise one `pairs`, a rankAcrossAudiences one `by_audience`). Rejects with `RequestFailedError` when it failed and
     * `TimeoutError` after `timeoutMs` (default 10 min), the request still running on the server.
     */
    waitForResult: (requestId: string, waitOptions?: WaitOptions) => waitForResult(getRequest, requestId, waitOptions),
    audiences: {
      /** GET /api/v1/audiences: the account's saved audiences. */
      list: (callOptions?: CallOptions) => call({ method: "GET", path: "/api/v1/audiences", read: withSchema(AudienceList) }, callOptions),
      /** POST /api/v1/audiences: saves an audience; use its `id` as `audience_id`. */
      create: (audience: CreateAudienceInput, callOptions?: CallOptions) => call({ method: "POST", path: "/api/v1/audiences", body: audience, read: withSchema(SavedAudience) }, callOptions),
    },
    outcomes: {
      /**
       * POST /api/v1/outcomes: records what ranked creatives did once they ran (1 to 500 per
       * call), each under its ranking's `request_id`, its `asset_id` and a `metric`. The batch is
       * recorded whole or not at all; `data` counts what was `created`, `updated` and `unchanged`
       * and lists each outcome with the score it is compared with. Recording is idempotent per
       * (request_id, asset_id, metric), so the call is retried like a GET, without an
       * Idempotency-Key. An unknown request_id is a `NotFoundError`, a pairwise or unfinished
       * request or an asset that was not ranked a `ValidationError`; `field` names the outcome.
       * Costs no credits.
       */
      record: (request: RecordOutcomesInput, callOptions?: CallOptions) => call({ method: "POST", path: "/api/v1/outcomes", body: request, read: withSchema(RecordOutcomesResponse) }, callOptions),
    },
    calibration: {
      /**
       * GET /api/v1/calibration: how well this account's scores predicted the outcomes it
       * recorded, per metric, per goal and pooled: Spearman's rho, Kendall's tau-b and pairwise
       * agreement, each with a 95 % interval, or `enough_data: false` and null figures below
       * `min_outcomes`. `query` narrows it to one `metric` and/or `goal`. Costs no credits.
       */
      get: (query: CalibrationQueryInput = {}, callOptions?: CallOptions) =>
        call({ method: "GET", path: `/api/v1/calibration${queryString({ metric: query.metric, goal: query.goal })}`, read: withSchema(CalibrationResponse) }, callOptions),
    },
  };
}

export type AdRankClient = ReturnType<typeof createClient>;
