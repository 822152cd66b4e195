import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AuthenticationError,
  BadRequestError,
  createClient,
  InsufficientCreditsError,
  NotFoundError,
  RateLimitError,
  ServiceUnavailableError,
  ValidationError,
  type RetryEvent,
} from "@adrank/sdk";
import { creative } from "../support/png.ts";
import { startStack, type Stack } from "../support/stack.ts";

// The SDK against the real gateway: every status of the spec arrives as its typed error,
// with the server's sentence and request id. (5xx retries are unit-tested against a local
// server in packages/sdk: the real gateway has no switch that makes it fail on demand.)

const audience = { name: "Weekend hikers", demographics: { ageRange: "35-44" as const } };
const asset = (n: number) => ({ url: creative(n), id: `img-${n}` });

describe("sdk against the running gateway", () => {
  let stack: Stack;
  const client = (apiKey: string, over: Partial<Parameters<typeof createClient>[0]> = {}) => createClient({ apiKey, baseUrl: stack.baseUrl, ...over });

  beforeAll(async () => {
    stack = await startStack({ logLevel: "warn" });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  }, 30_000);

  it("ranks and compares, returning typed bodies with the request id and the remaining window", async () => {
    const account = await stack.createAccount({ credits: 20 });
    const ranked = await client(account.key).rank({ assets: [asset(1), asset(2)], audience, goal: "scroll-stopping" });
    expect(ranked.data.ranked.map((r) => r.rank)).toEqual([1, 2]);
    expect(ranked.requestId).toBe(ranked.data.request_id);
    expect(ranked.rateLimitRemaining).toBe(58);
    const compared = await client(account.key).pairwise({ pairs: [{ pair_id: "p", a: { id: "a", image_url: creative(3) }, b: { id: "b", image_url: creative(4) } }], audience });
    expect(compared.data.pairs[0]!.votes).toHaveLength(5);
    expect(compared.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("creates and lists saved audiences and ranks with one", async () => {
    const account = await stack.createAccount({ credits: 5 });
    const sdk = client(account.key);
    const saved = await sdk.audiences.create({ name: "Night owls", demographics: { ageRange: "18-24" } });
    expect((await sdk.audiences.list()).data.audiences.map((a) => a.id)).toEqual([saved.data.id]);
    expect((await sdk.rank({ assets: [asset(5)], audience_id: saved.data.id })).data.summary.audience).toBe("Night owls");
  });

  it("maps 400, 401, 402, 404 and 422 to their errors with the server's sentence and request id, without retrying", async () => {
    const account = await stack.createAccount({ credits: 1 });
    const retries: RetryEvent[] = [];
    const sdk = client(account.key, { onRetry: (e) => retries.push(e) });
    const failure = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e);

    // The SDK always sends JSON; a fetch that relabels the body shows the server's 400 arrives typed.
    const relabel: typeof fetch = (input, init) => globalThis.fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), "content-type": "text/plain" } });
    const cases: Array<[unknown, new (...a: never[]) => Error, number]> = [
      [await failure(client(account.key, { fetch: relabel }).rank({ assets: [asset(6)], audience })), BadRequestError, 400],
      [await failure(client("agk_live_notarealkeyatall000000000000000000000000").rank({ assets: [asset(6)], audience })), AuthenticationError, 401],
      [await failure(sdk.rank({ assets: [asset(6), asset(7)], audience })), InsufficientCreditsError, 402],
      [await failure(sdk.rank({ assets: [asset(6)], audience_id: "aud_nosuchaudience" })), NotFoundError, 404],
      [await failure(sdk.rank({ assets: [{ url: "ftp://example.com/a.png" }], audience })), ValidationError, 422],
    ];
    for (const [err, Class, status] of cases) {
      expect(err).toBeInstanceOf(Class);
      expect(err).toMatchObject({ status, requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      expect((err as Error).message.length).toBeGreaterThan(10);
    }
    expect((cases[4]![0] as ValidationError).field).toBe("assets[0].url");
    expect(retries).toEqual([]);
  });

  it("surfaces 429 with retryAfter and resetAt, and when retrying waits what Retry-After says", async () => {
    const account = await stack.createAccount({ credits: 200 });
    const sdk = client(account.key, { retry: { maxRetries: 0 } });
    const twenty = Array.from({ length: 20 }, (_, i) => asset(10 + i));
    for (let i = 0; i < 3; i++) expect((await sdk.rank({ assets: twenty, audience, refine_close_pairs: false })).rateLimitRemaining).toBe(40 - 20 * i);
    const limited = await sdk.rank({ assets: [asset(40)], audience }).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    const rl = limited as RateLimitError;
    expect(rl.retryAfter).toBeGreaterThan(0);
    expect(rl.retryAfter).toBeLessThanOrEqual(60);
    expect(rl.resetAt).toBeGreaterThan(Date.now() / 1000);

    // A budget shorter than any Retry-After (at least 1 s) gets the 429 at once, unretried.
    const budgeted: RetryEvent[] = [];
    const started = performance.now();
    const quick = await client(account.key, { onRetry: (e) => budgeted.push(e) }).rank({ assets: [asset(40)], audience }, { retry: { maxElapsedMs: 500 } }).catch((e: unknown) => e);
    expect(quick).toBeInstanceOf(RateLimitError);
    expect(budgeted).toEqual([]);
    expect(performance.now() - started).toBeLessThan(500);

    // With retries on, the SDK schedules its retry after exactly Retry-After; the test stops it there.
    const stop = new AbortController();
    const seen: RetryEvent[] = [];
    const retrying = client(account.key, { onRetry: (e) => { seen.push(e); stop.abort(new Error("stopped by the test")); } });
    await expect(retrying.rank({ assets: [asset(41)], audience }, { signal: stop.signal })).rejects.toThrow("stopped by the test");
    expect(seen).toHaveLength(1);
    expect(seen[0]!.error).toBeInstanceOf(RateLimitError);
    expect(seen[0]!.delayMs).toBe((seen[0]!.error as RateLimitError).retryAfter * 1000);
  }, 90_000);
});

describe("sdk when no voter is running", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ logLevel: "warn", scorerEnv: false, voterEnv: false, refinementEnv: false });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  }, 30_000);

  it("maps the pairwise 503 to ServiceUnavailableError after its retries", async () => {
    const account = await stack.createAccount({ credits: 5 });
    const retries: RetryEvent[] = [];
    const sdk = createClient({ apiKey: account.key, baseUrl: stack.baseUrl, retry: { maxRetries: 1, baseDelayMs: 50 }, onRetry: (e) => retries.push(e) });
    const err = await sdk.pairwise({ pairs: [{ pair_id: "p", a: { id: "a", image_url: creative(1) }, b: { id: "b", image_url: creative(2) } }], audience }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect(err).toMatchObject({ status: 503, requestId: expect.any(String) });
    expect(retries).toHaveLength(1);
    const balance = await stack.ledger.balance({ accountId: account.accountId });
    expect(balance.ok && balance.value.available).toBe(5);
  });
});
