import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOOKUP_LENGTH } from "@adrank/api-keys";
import { call, rank, type HttpResult } from "../support/http.ts";
import { creative } from "../support/png.ts";
import { startStack, type Account, type Stack } from "../support/stack.ts";

// Two accounts against every /api/v1 route: neither can read, use or learn of the other's
// audiences, keys or usage, and keys exist at rest only as hashes and never in a log line.

const audience = { name: "Trail runners", demographics: { ageRange: "35-44" } };
const pair = (n: number) => ({ pair_id: `p${n}`, a: { id: `a${n}`, image_url: creative(n) }, b: { id: `b${n}`, image_url: creative(n + 50) } });

describe("account isolation and key secrecy", () => {
  let stack: Stack;
  let alice: Account;
  let bob: Account;
  let aliceAudience: string;

  beforeAll(async () => {
    stack = await startStack({ refinementEnv: false });
    alice = await stack.createAccount({ credits: 100, name: "alice" });
    bob = await stack.createAccount({ credits: 100, name: "bob" });
    const created = await call(stack.baseUrl, "POST", "/api/v1/audiences", { key: alice.key, json: { name: "Alice's private segment", description: "launch plan", demographics: { ageRange: "25-34" } } });
    expect(created.status).toBe(201);
    aliceAudience = created.body.id;
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  }, 30_000);

  const balance = async (a: Account) => {
    const r = await stack.ledger.balance({ accountId: a.accountId });
    if (!r.ok) throw new Error(JSON.stringify(r.rejection));
    return r.value.available;
  };
  /** A 404 for someone else's id must be indistinguishable from one for an id that never existed. */
  const sameAsUnknown = (foreign: HttpResult, unknown: HttpResult) => {
    expect(foreign.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(foreign.body.error.replace(aliceAudience, "<id>")).toBe(unknown.body.error.replace("aud_neverexisted0000", "<id>"));
    expect(JSON.stringify(foreign.body)).not.toContain("Alice's private segment");
  };

  it("rank: another account's audience is 404 like an unknown one, and nothing is charged", async () => {
    const before = await balance(bob);
    const body = { assets: [{ url: creative(3) }] };
    sameAsUnknown(await rank(stack.baseUrl, bob.key, { ...body, audience_id: aliceAudience }), await rank(stack.baseUrl, bob.key, { ...body, audience_id: "aud_neverexisted0000" }));
    expect(await balance(bob)).toBe(before);
    expect((await rank(stack.baseUrl, alice.key, { ...body, audience_id: aliceAudience })).status).toBe(200);
  });

  it("pairwise: another account's audience is 404 like an unknown one, and nothing is charged", async () => {
    const before = await balance(bob);
    const send = (audience_id: string) => call(stack.baseUrl, "POST", "/api/v1/pairwise", { key: bob.key, json: { pairs: [pair(1)], audience_id } });
    sameAsUnknown(await send(aliceAudience), await send("aud_neverexisted0000"));
    expect(await balance(bob)).toBe(before);
  });

  it("audiences: each account lists only its own", async () => {
    const mine = await call(stack.baseUrl, "POST", "/api/v1/audiences", { key: bob.key, json: { name: "Bob's segment" } });
    expect(mine.status).toBe(201);
    const bobs = await call(stack.baseUrl, "GET", "/api/v1/audiences", { key: bob.key });
    const alices = await call(stack.baseUrl, "GET", "/api/v1/audiences", { key: alice.key });
    expect(bobs.body.audiences.map((a: { id: string }) => a.id)).toEqual([mine.body.id]);
    expect(alices.body.audiences.map((a: { id: string }) => a.id)).toEqual([aliceAudience]);
  });

  it("usage: one account's spending and rate window are invisible to the other", async () => {
    const bobBefore = await balance(bob);
    const first = await rank(stack.baseUrl, bob.key, { assets: [{ url: creative(4) }], audience });
    const bobRemaining = Number(first.headers.get("x-ratelimit-remaining"));
    // Alice spends 10 units in her own window.
    const spent = await rank(stack.baseUrl, alice.key, { assets: Array.from({ length: 10 }, (_, i) => ({ url: creative(20 + i) })), audience });
    expect(spent.status).toBe(200);
    const again = await rank(stack.baseUrl, bob.key, { assets: [{ url: creative(5) }], audience });
    // Bob's window moved by his own unit only, and his credits by his own two requests.
    expect(Number(again.headers.get("x-ratelimit-remaining"))).toBe(bobRemaining - 1);
    expect(again.body.summary.credits_remaining).toBe(bobBefore - 2);
    expect(JSON.stringify(again.body)).not.toContain(alice.accountId);
  });

  it("keys: stored only as a hash, a look-up prefix and the last four, and never written to a log", async () => {
    const rows = await stack.database.db.selectFrom("api_keys").selectAll().execute();
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const secretsOf = (key: string) => key.slice(LOOKUP_LENGTH, -4);
    for (const row of rows) {
      const stored = JSON.stringify(row);
      for (const key of [alice.key, bob.key]) {
        expect(stored).not.toContain(key);
        expect(stored).not.toContain(secretsOf(key));
      }
    }
    // A wrong key in the right format: refused, and not logged either.
    const forged = `${alice.key.slice(0, LOOKUP_LENGTH)}${"x".repeat(alice.key.length - LOOKUP_LENGTH)}`;
    expect((await rank(stack.baseUrl, forged, { assets: [{ url: creative(6) }], audience })).status).toBe(401);
    await new Promise((r) => setTimeout(r, 200));
    const logs = stack.output();
    for (const secret of [alice.key, bob.key, forged, secretsOf(alice.key), secretsOf(bob.key)]) expect(logs).not.toContain(secret);
  });

  it("keys: one account's key never acts for the other, and a revoked key stops working", async () => {
    const created = (await stack.admin("create-key", "--account", bob.accountId, "--name", "temp")).stdout;
    const keyId = /^id: (\S+)$/m.exec(created)![1]!;
    const key = /^key: (agk_live_\S+)$/m.exec(created)![1]!;
    const listed = await call(stack.baseUrl, "GET", "/api/v1/audiences", { key });
    expect(listed.body.audiences.some((a: { id: string }) => a.id === aliceAudience)).toBe(false);
    await stack.admin("revoke-key", "--key-id", keyId);
    const until = Date.now() + 6_000;
    let status = 200;
    while (Date.now() < until && status !== 401) {
      status = (await call(stack.baseUrl, "GET", "/api/v1/audiences", { key })).status;
      if (status !== 401) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(401);
  });
});
