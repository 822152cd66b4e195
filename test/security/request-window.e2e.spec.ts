import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_REQUEST_LIMITS } from "@adrank/ledger-domain";
import { call, rank, type HttpResult } from "../support/http.ts";
import { startStack, type Stack } from "../support/stack.ts";

// Issue 33, gap 3: a request whose assets all fail intake costs 0 and took no room in the unit
// windows, so it could be repeated without end (1,000 were admitted in 10 s on 1 credit), each
// making the gateway fetch up to 20 URLs of the caller's choosing. Now every account has a
// request window (ACCOUNT_REQUEST_LIMITS.requests rank and pairwise requests per minute,
// whatever they cost) and a fetch window (ACCOUNT_REQUEST_LIMITS.fetches image URLs per
// minute), kept by the ledger beside the unit windows; beyond either, 429 with Retry-After.
// The URLs are on loopback port 9 (discard), refused by intake before or at connect: never a
// non-loopback address.

const REQUEST_LIMIT = ACCOUNT_REQUEST_LIMITS.requests;
const FETCH_LIMIT = ACCOUNT_REQUEST_LIMITS.fetches;
const SENT = 1_000;
const BATCH = 50;
const URLS_PER_REQUEST = 20;
const audience = { name: "Late-night snackers", demographics: { ageRange: "18-24" } };
const failingUrl = (n: number) => `https://127.0.0.1:9/${n}.png`;

describe("an account's requests and image fetches are windowed, whatever the requests cost", () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ logLevel: "warn", voterEnv: false, refinementEnv: false });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  }, 30_000);

  const available = async (accountId: string) => {
    const r = await stack.ledger.balance({ accountId });
    if (!r.ok) throw new Error(JSON.stringify(r.rejection));
    return r.value.available;
  };
  /** A 429 of the named window: Retry-After within the minute, echoed in the body, and the window in the sentence. */
  const refusedBy = (res: HttpResult, sentence: RegExp) => {
    expect(res.status, JSON.stringify(res.body)).toBe(429);
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 61, `Retry-After ${res.headers.get("retry-after")}`).toBe(true);
    expect(res.body.retryAfter).toBe(retryAfter);
    expect(res.body.error).toMatch(sentence);
  };
  /** A 200 whose every asset failed intake, and which charged nothing. */
  const admittedAndFree = (res: HttpResult, assets: number) => {
    expect(res.status, JSON.stringify(res.body).slice(0, 400)).toBe(200);
    expect(res.body.ranked).toEqual([]);
    expect(res.body.errors).toHaveLength(assets);
    expect(res.body.summary).toMatchObject({ credits_used: 0 });
  };

  it(`${SENT} requests whose only asset fails intake, on 1 credit: ${REQUEST_LIMIT} are admitted, the rest get 429 naming requests per minute, and nothing is charged`, async () => {
    const account = await stack.createAccountDirect({ credits: 1 });
    const send = (i: number) => rank(stack.baseUrl, account.key, { assets: [{ id: `x${i}`, url: "https://127.0.0.1:9/x.png" }], audience, refine_close_pairs: false });
    const results: HttpResult[] = [];
    const started = performance.now();
    // One at a time while they are admitted: the one credit is held by each request until it
    // settles (for 0), so a second one at the same moment would be refused with 402, which is
    // not the window this test is about. Once the window is full, nothing is held and the
    // rest go in concurrent batches.
    while (results.length < SENT && results.at(-1)?.status !== 429) results.push(await send(results.length));
    const windowFullMs = performance.now() - started;
    while (results.length < SENT) results.push(...(await Promise.all(Array.from({ length: Math.min(BATCH, SENT - results.length) }, (_, k) => send(results.length + k)))));
    const allMs = performance.now() - started;

    const admitted = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    console.log(
      `[request window] ${SENT} all-failing rank requests on 1 credit: ${admitted.length} admitted (the window full after ${(windowFullMs / 1000).toFixed(1)} s, one at a time), ` +
        `${refused.length} refused with 429 (in batches of ${BATCH}), all answered in ${(allMs / 1000).toFixed(1)} s; limit ${REQUEST_LIMIT} a minute; "${refused[0]?.body.error}"`,
    );

    // All within one window, or a request aged out and let another in.
    expect(allMs).toBeLessThan(55_000);
    expect(results.map((r) => r.status).filter((s) => s !== 200 && s !== 429), stack.output().slice(-3000)).toEqual([]);
    expect(admitted).toHaveLength(REQUEST_LIMIT);
    expect(refused).toHaveLength(SENT - REQUEST_LIMIT);
    for (const r of admitted) admittedAndFree(r, 1);
    for (const r of refused) refusedBy(r, /rank and pairwise requests per minute/);
    expect(await available(account.accountId)).toBe(1);
  }, 180_000);

  it(`a fresh account's image URLs: ${FETCH_LIMIT / URLS_PER_REQUEST} requests of ${URLS_PER_REQUEST} URLs are admitted, the next gets 429 naming image URLs`, async () => {
    const account = await stack.createAccountDirect({ credits: URLS_PER_REQUEST });
    const send = (r: number) =>
      rank(stack.baseUrl, account.key, { assets: Array.from({ length: URLS_PER_REQUEST }, (_, i) => ({ id: `r${r}a${i}`, url: failingUrl(r * URLS_PER_REQUEST + i) })), audience, refine_close_pairs: false });
    const fitting = FETCH_LIMIT / URLS_PER_REQUEST;
    const started = performance.now();
    // One at a time: each holds the account's 20 credits until it settles for 0.
    for (let r = 0; r < fitting; r++) admittedAndFree(await send(r), URLS_PER_REQUEST);
    const over = await send(fitting);
    console.log(`[fetch window] ${fitting} requests of ${URLS_PER_REQUEST} failing URLs admitted in ${((performance.now() - started) / 1000).toFixed(1)} s; request ${fitting + 1}: ${over.status} "${over.body.error}"`);
    refusedBy(over, /image URLs per minute/);
    expect(await available(account.accountId)).toBe(URLS_PER_REQUEST);
  }, 120_000);

  it("the published guide states both limits", async () => {
    const doc = await call(stack.baseUrl, "GET", "/api/v1/openapi.json");
    expect(doc.status).toBe(200);
    const lines = String(doc.body.info.description).split("\n");
    const requests = lines.filter((l) => l.includes(String(REQUEST_LIMIT)) && /request/i.test(l));
    const fetches = lines.filter((l) => l.includes(String(FETCH_LIMIT)) && /image URL/i.test(l));
    expect(requests, `no line of the guide names ${REQUEST_LIMIT} requests`).not.toEqual([]);
    expect(fetches, `no line of the guide names ${FETCH_LIMIT} image URLs`).not.toEqual([]);
  });
});
