import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MAX_ACTIVE_KEYS_PER_ACCOUNT } from "@adrank/db/repositories";
import { ACCOUNT_RATE_LIMITS, RATE_LIMITS } from "@adrank/ledger-domain";
import { call, rank, type HttpResult } from "../support/http.ts";
import { creative } from "../support/png.ts";
import { startStack, type Account, type Stack } from "../support/stack.ts";

// Issue 31, attack 7: the rate window was per key and keys per account were unlimited, so an
// account multiplied its rate limit by making keys (11 keys were admitted 61 evaluations in
// 2 s). Now the keys of one account share an account window (ACCOUNT_RATE_LIMITS, 180 scoring
// evaluations per minute by default) and an account holds at most MAX_ACTIVE_KEYS_PER_ACCOUNT
// (20) active keys, enforced where keys are made: the console and the admin command line.

const ACCOUNT_LIMIT = ACCOUNT_RATE_LIMITS.scoring;
const KEY_LIMIT = RATE_LIMITS.scoring;
const KEY_CAP = DEFAULT_MAX_ACTIVE_KEYS_PER_ACCOUNT;
const KEYS = 11;
const REQUESTS_PER_KEY = 2;
const ASSETS_PER_REQUEST = 20;
const audience = { name: "Commuters", demographics: { ageRange: "25-34" } };

describe("one account's keys share one rate window, and an account has a bounded number of keys", () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({
      logLevel: "warn",
      refinementEnv: false,
      voterEnv: false,
      dashboardEnv: { DASHBOARD_SESSION_SECRET: "key-cap-test-secret-of-at-least-32-chars", DASHBOARD_SIGNUP_CREDITS: "0" },
    });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  }, 30_000);

  const available = async (accountId: string) => {
    const r = await stack.ledger.balance({ accountId });
    if (!r.ok) throw new Error(JSON.stringify(r.rejection));
    return r.value.available;
  };
  const createKey = async (accountId: string, name: string) => {
    const printed = (await stack.admin("create-key", "--account", accountId, "--name", name)).stdout;
    const key = /^key: (agk_live_\S+)$/m.exec(printed)?.[1];
    if (!key) throw new Error(`create-key printed no key:\n${printed}`);
    return key;
  };

  it(`${KEYS} keys fired at once are admitted no more than the account's ${ACCOUNT_LIMIT} evaluations; the rest get 429 with Retry-After and cost nothing`, async () => {
    const account: Account = await stack.createAccount({ credits: 5_000, name: "many keys" });
    const keys = [account.key];
    for (let i = 1; i < KEYS; i++) keys.push(await createKey(account.accountId, `key ${i + 1}`));
    const before = await available(account.accountId);

    // Each key asks for 40 evaluations: within its own window of 60, 440 for the account.
    const body = (k: number, r: number) => ({
      assets: Array.from({ length: ASSETS_PER_REQUEST }, (_, i) => ({ id: `k${k}r${r}a${i}`, url: creative(k * 100 + r * 20 + i) })),
      audience,
      refine_close_pairs: false,
    });
    const fired = performance.now();
    const answers: Promise<HttpResult>[] = [];
    for (let r = 0; r < REQUESTS_PER_KEY; r++) keys.forEach((key, k) => answers.push(rank(stack.baseUrl, key, body(k, r))));
    const firedInMs = performance.now() - fired;
    const results = await Promise.all(answers);
    const allAnsweredMs = performance.now() - fired;

    const admitted = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    const admittedUnits = admitted.length * ASSETS_PER_REQUEST;
    const evaluations = admitted.reduce((n, r) => n + Number(r.body.summary.scoring_evaluations), 0);
    const lastRefusalMs = Math.max(0, ...refused.map((r) => r.ms));
    console.log(
      `[account window] ${KEYS} keys x ${REQUESTS_PER_KEY} requests x ${ASSETS_PER_REQUEST} assets fired in ${firedInMs.toFixed(1)} ms: ` +
        `${admitted.length} admitted (${admittedUnits} evaluations reserved, ${evaluations} billed), ${refused.length} refused with 429 (the last after ${lastRefusalMs.toFixed(0)} ms), ` +
        `all answered after ${allAnsweredMs.toFixed(0)} ms; account limit ${ACCOUNT_LIMIT}, key limit ${KEY_LIMIT}`,
    );

    expect(firedInMs).toBeLessThan(2_000);
    expect(results.map((r) => r.status).filter((s) => s !== 200 && s !== 429), stack.output()).toEqual([]);
    expect(admittedUnits).toBeLessThanOrEqual(ACCOUNT_LIMIT);
    // The account's window was used, not left idle: every request that fitted was admitted.
    expect(admittedUnits).toBeGreaterThan(ACCOUNT_LIMIT - ASSETS_PER_REQUEST);
    expect(refused.length).toBe(results.length - admitted.length);
    for (const r of refused) {
      const retryAfter = Number(r.headers.get("retry-after"));
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 61, `Retry-After ${r.headers.get("retry-after")}`).toBe(true);
      expect(r.body.retryAfter).toBe(retryAfter);
      expect(r.body.error).toMatch(/account/);
      expect(Number(r.headers.get("x-ratelimit-remaining"))).toBeLessThan(ASSETS_PER_REQUEST);
    }
    // Only the admitted requests' evaluations were charged; the refused ones cost nothing.
    expect(before - (await available(account.accountId))).toBe(evaluations);

    // The next request of a key that has not used its own window is refused by the account's.
    const fresh = await createKey(account.accountId, "fresh");
    const after = await rank(stack.baseUrl, fresh, { assets: [{ url: creative(999) }], audience, refine_close_pairs: false });
    expect(after.status).toBe(429);
    expect(after.body.error).toMatch(/account/);
  }, 180_000);

  it(`refuses the ${KEY_CAP + 1}st active key in the console and the admin command line, and two racing creates cannot both take the last place`, async () => {
    const signUp = await call(stack.dashboardUrl, "POST", "/console/api/signup", { json: { email: "many-keys@example.com", password: "a long enough password" } });
    expect(signUp.status).toBe(201);
    const cookie = signUp.headers.get("set-cookie")!.split(";")[0]!;
    const me = await call(stack.dashboardUrl, "GET", "/console/api/me", { headers: { cookie } });
    const session = { cookie, "x-csrf-token": me.body.csrfToken as string };
    const accountId = me.body.accountId as string;
    const consoleCreate = (name: string) => call(stack.dashboardUrl, "POST", "/console/api/keys", { json: { name }, headers: session });
    const active = async () => Number((await stack.database.db.selectFrom("api_keys").select((eb) => eb.fn.countAll().as("n")).where("account_id", "=", accountId).where("revoked_at", "is", null).executeTakeFirstOrThrow()).n);

    for (let i = 0; i < KEY_CAP; i++) expect((await consoleCreate(`key ${i + 1}`)).status).toBe(201);
    const refused = await consoleCreate("one too many");
    console.log(`[key cap] console answered ${refused.status} ${JSON.stringify(refused.body.error ?? "")} for key ${KEY_CAP + 1}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(new RegExp(`${KEY_CAP} active API keys.*[Rr]evoke`));
    await expect(stack.admin("create-key", "--account", accountId, "--name", "via admin")).rejects.toThrow(new RegExp(`${KEY_CAP} active API keys.*revoke`, "i"));
    expect(await active()).toBe(KEY_CAP);

    // Revoking one makes one place; of several creates at once exactly one takes it.
    const listed = await call(stack.dashboardUrl, "GET", "/console/api/keys", { headers: session });
    expect((await call(stack.dashboardUrl, "POST", `/console/api/keys/${listed.body.keys[0].id}/revoke`, { headers: session })).status).toBe(200);
    const racing = await Promise.all(Array.from({ length: 6 }, (_, i) => consoleCreate(`racer ${i}`)));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(await active()).toBe(KEY_CAP);
  }, 120_000);
});
