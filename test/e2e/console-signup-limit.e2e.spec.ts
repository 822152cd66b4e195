import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { call } from "../support/http.ts";
import { startStack, type Stack } from "../support/stack.ts";

// Two console processes on one database and namespace, as two replicas behind one ingress:
// the sign-up and sign-in limits are counted in Postgres, so they hold in total, whichever
// process a request reaches. The test plays the ingress: each process trusts one proxy hop
// and takes the client address from the X-Forwarded-For entry the test writes.

const PER_ADDRESS = 3;
const GLOBAL = 5;
const CREDITS = 25;
const PASSWORD = "a long enough password";

describe("console sign-up and sign-in limits across two processes", () => {
  let stack: Stack;
  let consoles: string[];

  beforeAll(async () => {
    stack = await startStack({
      logLevel: "warn",
      dashboardEnv: {
        DASHBOARD_SESSION_SECRET: "limits-test-secret-of-at-least-32-chars",
        DASHBOARD_SIGNUP_CREDITS: String(CREDITS),
        DASHBOARD_SIGNUP_LIMIT_PER_ADDRESS: String(PER_ADDRESS),
        DASHBOARD_SIGNUP_LIMIT_GLOBAL: String(GLOBAL),
        DASHBOARD_SIGNIN_MAX_FAILURES: "3",
        DASHBOARD_TRUST_PROXY: "1",
      },
    });
    const second = await stack.startReplica("dashboard");
    consoles = [stack.dashboardUrl, second.baseUrl];
  }, 150_000);

  afterAll(async () => {
    await stack?.stop();
  }, 30_000);

  const signUp = (process: number, email: string, address: string) =>
    call(consoles[process % 2]!, "POST", "/console/api/signup", { json: { email, password: PASSWORD }, headers: { "x-forwarded-for": address } });
  const signIn = (process: number, email: string, password: string, address: string) =>
    call(consoles[process % 2]!, "POST", "/console/api/signin", { json: { email, password }, headers: { "x-forwarded-for": address } });
  const users = async (emails: string[]) => (await stack.database.db.selectFrom("dashboard_users").select("email").where("email", "in", emails).execute()).map((u) => u.email);
  const accountCount = async () => Number((await stack.database.db.selectFrom("accounts").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
  const totalGranted = async () => Number((await sql<{ total: string | null }>`select sum(granted) as total from ledger_accounts`.execute(stack.database.db)).rows[0]?.total ?? 0);

  it("refuses the sign-up after the per-address limit on whichever process gets it, creating no account and granting nothing", async () => {
    const address = "203.0.113.7";
    const accepted: string[] = [];
    for (let i = 0; i < PER_ADDRESS; i++) {
      const res = await signUp(i, `farmer${i}@example.com`, address);
      expect(res.status, `${JSON.stringify(res.body)}\n${stack.output()}`).toBe(201);
      accepted.push(res.body.accountId as string);
    }
    // The next two go to process 2 and process 1: each has seen only some of the three.
    const refusedEmails = ["farmer3@example.com", "farmer4@example.com"];
    for (const [i, email] of refusedEmails.entries()) {
      const refused = await signUp(PER_ADDRESS + i, email, address);
      expect(refused.status).toBe(429);
      const wait = Number(refused.headers.get("retry-after"));
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(3_600);
      expect(refused.body).toEqual({ error: expect.stringMatching(/^Too many sign-ups from your network\. Try again in \d+ (second|minute)s?\.$/), retryAfter: wait });
      expect(refused.headers.get("set-cookie")).toBeNull();
    }
    // A forged address to the left of the proxy's entry changes nothing.
    expect((await signUp(0, "farmer5@example.com", `198.51.100.99, ${address}`)).status).toBe(429);

    expect(await users(refusedEmails)).toEqual([]);
    expect(await accountCount()).toBe(PER_ADDRESS);
    for (const accountId of accepted) {
      const balance = await stack.ledger.balance({ accountId });
      expect(balance.ok && balance.value.available).toBe(CREDITS);
    }
    // The ledger's projection sees exactly the accepted sign-ups' grants, and no more arrive.
    await expect.poll(totalGranted, { timeout: 10_000, interval: 200 }).toBe(PER_ADDRESS * CREDITS);
    await new Promise((r) => setTimeout(r, 500));
    expect(await totalGranted()).toBe(PER_ADDRESS * CREDITS);
  });

  it("holds the global limit across addresses and processes, without charging it for refused attempts", async () => {
    // Three sign-ups so far; the address-limited refusals above used none of the global room.
    expect((await signUp(1, "elsewhere1@example.com", "198.51.100.1")).status).toBe(201);
    expect((await signUp(0, "elsewhere2@example.com", "198.51.100.2")).status).toBe(201);
    for (const [i, address] of ["198.51.100.3", "198.51.100.4"].entries()) {
      const refused = await signUp(i, `elsewhere${i + 3}@example.com`, address);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatch(/^Sign-up is paused for a while: too many new accounts were made recently\. Try again in/);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(await accountCount()).toBe(GLOBAL);
    expect(await users(["elsewhere3@example.com", "elsewhere4@example.com"])).toEqual([]);
  });

  it("counts failed sign-ins on one process against sign-in on the other", async () => {
    const address = "192.0.2.44";
    for (let i = 0; i < 3; i++) {
      const wrong = await signIn(i, "farmer0@example.com", "not the password at all", address);
      expect(wrong.status).toBe(401);
    }
    // The fourth attempt, on the process that saw only one failure, carries the right password: still refused.
    const blocked = await signIn(1, "farmer0@example.com", PASSWORD, address);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(blocked.body.error).toMatch(/^Too many failed sign-ins\. Try again in/);
    expect((await signIn(0, "farmer0@example.com", PASSWORD, address)).status).toBe(429);
    // Another email from the same address is not blocked: 3 failures are well within the address's 12.
    expect((await signIn(1, "farmer1@example.com", PASSWORD, address)).status).toBe(200);
  });
});
