import { writeFileSync, rmSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSelfSignedCert } from "../../packages/images/test/support/self-signed-cert.ts";
import { startTestHttpsServer, type TestHttpsServer } from "../../packages/images/test/support/test-https-server.ts";
import { startStack, type Account, type Stack } from "../support/stack.ts";
import { envelopeCases } from "./corpus/envelope.ts";
import { fieldCases } from "./corpus/fields.ts";
import { audience, good, pairWith, rankWith } from "./corpus/helpers.ts";
import { imageCases } from "./corpus/images.ts";
import { injectionCases } from "./corpus/injection.ts";
import { malformedCases } from "./corpus/malformed.ts";
import { servedCases, type ServedCase, type ServedResponse } from "./corpus/served.ts";
import { ssrfCases } from "./corpus/ssrf.ts";
import type { CorpusContext, HostileCase, Json } from "./corpus/types.ts";
import { evaluationsOf, judge, prepare, send, sendRaw, type Reply } from "./runner.ts";

// The hostile corpus against the real gateway. Every case must end in its clear refusal (or a
// per-asset error where the spec reports one per asset): JSON, a sentence, no internals; it
// must charge nothing it did not do, leave every service running and /healthz answering, and
// never open a connection to a refused address: a trap listens on loopback to prove it.
// Afterwards, ordinary requests must still behave normally and no log may hold a key or an
// image payload.

const corpus: HostileCase[] = [...malformedCases, ...fieldCases, ...envelopeCases, ...ssrfCases, ...imageCases, ...injectionCases];
const CREDITS = 50;
/** Cases in flight at once: the machine has 2 shared cores and the bodies reach 40 MiB. */
const CONCURRENCY = 4;

function grouped<T extends { category: string }>(cases: readonly T[]): Array<{ category: string; cases: T[] }> {
  const groups = new Map<string, T[]>();
  for (const c of cases) groups.set(c.category, [...(groups.get(c.category) ?? []), c]);
  return [...groups].map(([category, list]) => ({ category, cases: list }));
}

function limiter(n: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    while (active >= n) await new Promise<void>((r) => waiting.push(r));
    active++;
    try {
      return await work();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

/** Listens on 127.0.0.1 and (where the machine has it) ::1 at one port; counts every connection. */
class Trap {
  connections: string[] = [];
  port = 0;
  private servers: Server[] = [];
  private readonly inFlight: () => string[];
  constructor(inFlight: () => string[]) {
    this.inFlight = inFlight;
  }
  async open(): Promise<void> {
    const onConnection = (socket: Socket) => {
      this.connections.push(`${socket.remoteAddress} while in flight: ${this.inFlight().join(", ")}`);
      socket.destroy();
    };
    const v4 = createServer(onConnection);
    await new Promise<void>((r) => v4.listen(0, "127.0.0.1", r));
    this.servers.push(v4);
    this.port = (v4.address() as { port: number }).port;
    const v6 = createServer(onConnection);
    const listening = await new Promise<boolean>((r) => v6.once("error", () => r(false)).listen(this.port, "::1", () => r(true)));
    if (listening) this.servers.push(v6);
  }
  close(): Promise<void> {
    return Promise.all(this.servers.map((s) => new Promise<void>((r) => s.close(() => r())))).then(() => undefined);
  }
}

/** Secrets and payloads sent, which no log line may contain. */
const mustNotBeLogged = new Set<string>();
function rememberSecrets(key: string, authorization: readonly string[], payload: string | Buffer | undefined): void {
  mustNotBeLogged.add(key);
  for (const header of authorization) {
    const token = /agk_live_[A-Za-z0-9_-]{20,}/.exec(header)?.[0];
    if (token) mustNotBeLogged.add(token.slice(0, 60));
  }
  if (typeof payload !== "string") return;
  // A slice from inside each image payload (skipping runs of one character, which say nothing).
  let from = 0;
  for (let found = 0; found < 4; found++) {
    const at = payload.indexOf(";base64,", from);
    if (at < 0) break;
    const slice = payload.slice(at + 8 + 40, at + 8 + 80);
    if (slice.length === 40 && new Set(slice).size > 8) mustNotBeLogged.add(slice);
    from = at + 8;
  }
}

/** How each case ended, for the summary: the status, and for a 200 whether per-asset or per-pair errors carried the refusal. */
const outcomes = new Map<string, number>();
function countOutcome(reply: Reply | null): void {
  let label = reply ? String(reply.status) : "no answer";
  if (reply?.status === 200) {
    try {
      const body = JSON.parse(reply.text) as Json;
      if (Array.isArray(body.errors) && body.errors.length > 0) label = "200 with per-asset errors";
      else if (Array.isArray(body.pairs) && body.pairs.some((p: Json) => p.status === "error")) label = "200 with pair errors";
    } catch {
      label = "200 not JSON";
    }
  }
  outcomes.set(label, (outcomes.get(label) ?? 0) + 1);
}

const inFlight = new Set<string>();
const trap = new Trap(() => [...inFlight]);

describe("hostile input", () => {
  beforeAll(() => trap.open());
  afterAll(async () => {
    const counts = Object.fromEntries(grouped(corpus).map((g) => [g.category, g.cases.length]));
    const byOutcome = Object.fromEntries([...outcomes].sort(([a], [b]) => a.localeCompare(b)));
    console.log(`hostile corpus: ${corpus.length} cases against the gateway + ${servedCases.length} served through a loopback origin; by category ${JSON.stringify(counts)}; by outcome ${JSON.stringify(byOutcome)}`);
    await trap.close();
  });

  describe("against the gateway", () => {
    let stack: Stack;
    let other: Account;
    const ctx: CorpusContext = { trapPort: 0, otherAudienceId: "" };
    const limit = limiter(CONCURRENCY);

    beforeAll(async () => {
      const names = new Set<string>();
      for (const c of corpus) {
        if (names.has(c.name)) throw new Error(`two cases are named ${c.name}`);
        names.add(c.name);
      }
      stack = await startStack({ refinementEnv: false, gatewayEnv: { RANK_TIMEOUT_MS: "30000", PAIRWISE_TIMEOUT_MS: "30000" } });
      other = await stack.createAccountDirect({ credits: 10 });
      mustNotBeLogged.add(other.key);
      const saved = await fetch(`${stack.baseUrl}/api/v1/audiences`, { method: "POST", headers: { authorization: `Bearer ${other.key}`, "content-type": "application/json" }, body: JSON.stringify({ name: "Someone else's segment", demographics: { ageRange: "35-44" } }) });
      if (saved.status !== 201) throw new Error(`could not save the other account's audience: ${saved.status} ${await saved.text()}`);
      ctx.trapPort = trap.port;
      ctx.otherAudienceId = ((await saved.json()) as { id: string }).id;
    }, 120_000);

    afterAll(async () => {
      await stack?.stop();
    }, 60_000);

    const balance = async (a: Account) => {
      const r = await stack.ledger.balance({ accountId: a.accountId });
      if (!r.ok) throw new Error(`balance refused: ${JSON.stringify(r.rejection)}`);
      return r.value.available;
    };

    async function runCase(c: HostileCase): Promise<string[]> {
      // A fresh account per case: rate windows never interfere, and its balance shows what the case cost.
      const account = await stack.createAccountDirect({ credits: CREDITS });
      const before = await balance(account);
      if (before !== CREDITS) return [`a fresh account holds ${before} credits, not ${CREDITS}`];
      const sent = prepare(c, ctx, account.key);
      rememberSecrets(account.key, sent.authorization, sent.payload);
      const trapped = trap.connections.length;
      inFlight.add(c.name);
      let reply: Reply;
      try {
        reply = c.raw ? await sendRaw(stack.baseUrl, c.raw(account.key)) : await send(stack.baseUrl, c, sent);
      } catch (err) {
        countOutcome(null);
        return [`no answer: ${String(err)}`];
      } finally {
        inFlight.delete(c.name);
      }
      countOutcome(reply);
      const problems = judge(c, reply, sent);
      problems.push(...(await charges(c, reply, account, before)));
      if (trap.connections.length > trapped) problems.push(`a connection reached the trap: ${trap.connections.slice(trapped).join("; ")}`);
      const dead = stack.processes.filter((p) => !p.isRunning()).map((p) => p.name);
      if (dead.length) problems.push(`${dead.join(", ")} stopped running\n${stack.output().slice(-3000)}`);
      else {
        const health = await fetch(`${stack.baseUrl}/healthz`).then((r) => r.status, (err: unknown) => String(err));
        if (health !== 200) problems.push(`/healthz answered ${health} afterwards`);
      }
      return problems;
    }

    /** Refusals cost nothing; a served request costs exactly what its summary says, which is what it billed. */
    async function charges(c: HostileCase, reply: Reply, account: Account, before: number): Promise<string[]> {
      const spent = before - (await balance(account));
      if (reply.status < 200 || reply.status >= 300) return spent === 0 ? [] : [`the refused request (${reply.status}) charged ${spent} credits`];
      let body: Json;
      try {
        body = JSON.parse(reply.text) as Json;
      } catch {
        return [];
      }
      const used = body.summary?.credits_used;
      if (typeof used !== "number") return spent === 0 ? [] : [`${c.method ?? "POST"} ${c.path} charged ${spent} credits`];
      return spent === used ? [] : [`the summary says ${used} credits were used, the balance moved by ${spent}`];
    }

    describe.each(grouped(corpus))("$category", ({ cases }) => {
      it.concurrent.for(cases)("$name", async (c, { expect }) => {
        const problems = await limit(() => runCase(c));
        expect(problems, problems.join("\n")).toEqual([]);
      });
    });

    describe("afterwards", () => {
      it("ordinary requests still behave normally: no polluted prototype, no stray keys", async () => {
        const account = await stack.createAccountDirect({ credits: CREDITS });
        const post = (path: string, body: unknown) =>
          fetch(`${stack.baseUrl}${path}`, { method: "POST", headers: { authorization: `Bearer ${account.key}`, "content-type": "application/json" }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as Json }));
        mustNotBeLogged.add(account.key);

        const ranked = await post("/api/v1/rank", { assets: [{ url: good(11), id: "plain", copy_context: { headline: "Summer sale", body: "Shop light linen shirts for hot days, free returns within 30 days." } }], audience });
        expect(ranked.status).toBe(200);
        expect(ranked.body.errors).toEqual([]);
        expect(Object.keys(ranked.body).sort()).toEqual(["errors", "ranked", "request_id", "summary"]);
        const asset = ranked.body.ranked[0] as Json;
        expect(asset.asset_id).toBe("plain");
        expect(asset.score_layer).toBe("full-ad-package");
        expect(ranked.body.summary.credits_used).toBe(evaluationsOf(asset));
        const strayKeys = /"(polluted|admin|isAdmin)"/;
        expect(JSON.stringify(ranked.body)).not.toMatch(strayKeys);

        const paired = await post("/api/v1/pairwise", pairWith());
        expect(paired.status).toBe(200);
        expect(paired.body.pairs[0].status).toBe("done");
        expect(JSON.stringify(paired.body)).not.toMatch(strayKeys);

        const saved = await post("/api/v1/audiences", { name: "After the corpus", demographics: { ageRange: "18-24", hobby: "cycling" } });
        expect(saved.status).toBe(201);
        expect(saved.body.demographics).toEqual({ ageRange: "18-24", hobby: "cycling" });
        expect(Object.keys(saved.body).sort()).toEqual(["created_at", "demographics", "description", "id", "name"]);

        // The validator still refuses what it refused before the pollution attempts.
        const unknown = await post("/api/v1/rank", { assets: [{ url: good(11) }], audience, admin: true });
        expect(unknown.status).toBe(422);
        expect(unknown.body.field).toBe("admin");
        const empty = await post("/api/v1/audiences", {});
        expect(empty.status).toBe(422);
        expect(empty.body.field).toBe("name");
      });

      it("the other account was never charged and sees only its own audience", async () => {
        expect(await balance(other)).toBe(10);
        const listed = await fetch(`${stack.baseUrl}/api/v1/audiences`, { headers: { authorization: `Bearer ${other.key}` } });
        const body = (await listed.json()) as { audiences: Json[] };
        expect(body.audiences.map((a) => a.id)).toEqual([ctx.otherAudienceId]);
        expect(body.audiences[0]!.demographics).toEqual({ ageRange: "35-44" });
      });

      it("every service is still running and the gateway is healthy and ready", async () => {
        expect(stack.processes.filter((p) => !p.isRunning()).map((p) => p.name)).toEqual([]);
        expect((await fetch(`${stack.baseUrl}/healthz`)).status).toBe(200);
        expect((await fetch(`${stack.baseUrl}/readyz`)).status).toBe(200);
      });

      it("no log holds an API key, a bearer token or an image payload", () => {
        const logs = stack.output();
        const leaked = [...mustNotBeLogged].filter((secret) => logs.includes(secret));
        expect(leaked.map((s) => `${s.slice(0, 16)}…`)).toEqual([]);
        expect(logs).not.toMatch(/;base64,[A-Za-z0-9+/]{24}/);
        expect(logs).not.toMatch(/iVBORw0KGgo/);
      });
    });
  });

  describe("through a loopback https origin (IMAGE_ALLOW_LOOPBACK, a test setting)", () => {
    let stack: Stack;
    let server: TestHttpsServer;
    let caFile = "";
    const limit = limiter(CONCURRENCY);

    beforeAll(async () => {
      const cert = makeSelfSignedCert();
      caFile = join(tmpdir(), `hostile-ca-${process.pid}.pem`);
      writeFileSync(caFile, cert.cert);
      server = await startTestHttpsServer(cert);
      servedCases.forEach((c, i) => {
        const base = `/case${i}`;
        for (const [suffix, response] of c.routes({ trapPort: trap.port, origin: server.origin, base })) server.route(`${base}${suffix}`, (_req, res) => respond(res, response));
      });
      stack = await startStack({ voterEnv: false, refinementEnv: false, gatewayEnv: { IMAGE_ALLOW_LOOPBACK: "true", IMAGE_CA_FILE: caFile } });
    }, 120_000);

    afterAll(async () => {
      await stack?.stop();
      await server?.close();
      rmSync(caFile, { force: true });
    }, 60_000);

    // Runs first, alone: proves the trap sees a fetch by the gateway, so "no connection" means refused.
    it("control: with loopback allowed, a fetch of https://127.0.0.1:TRAP does reach the trap", async () => {
      const account = await stack.createAccountDirect({ credits: CREDITS });
      mustNotBeLogged.add(account.key);
      const before = trap.connections.length;
      const res = await fetch(`${stack.baseUrl}/api/v1/rank`, { method: "POST", headers: { authorization: `Bearer ${account.key}`, "content-type": "application/json" }, body: JSON.stringify(rankWith({ url: `https://127.0.0.1:${trap.port}/ad.png` })) });
      const body = (await res.json()) as Json;
      expect(res.status).toBe(200);
      expect(body.errors.map((e: Json) => e.asset_id)).toEqual(["hostile"]);
      expect(trap.connections.length).toBeGreaterThan(before);
      // These connections were asked for; the final check counts only the corpus's.
      trap.connections.splice(before);
    });

    describe.each(grouped(servedCases.map((c, i) => ({ ...c, index: i }))))("$category", ({ cases }) => {
      it.concurrent.for(cases)("$name", async (c, { expect }) => {
        const problems = await limit(() => runServed(c, `${server.origin}/case${c.index}`));
        expect(problems, problems.join("\n")).toEqual([]);
      });
    });

    async function runServed(c: ServedCase, url: string): Promise<string[]> {
      const account = await stack.createAccountDirect({ credits: CREDITS });
      mustNotBeLogged.add(account.key);
      const trapped = trap.connections.length;
      inFlight.add(c.name);
      const res = await fetch(`${stack.baseUrl}/api/v1/rank`, { method: "POST", headers: { authorization: `Bearer ${account.key}`, "content-type": "application/json" }, body: JSON.stringify(rankWith({ url })) }).finally(() => inFlight.delete(c.name));
      const reply: Reply = { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
      countOutcome(reply);
      const problems = judge({ category: c.category, name: c.name, path: "/api/v1/rank", expect: "ok" in c.expect ? { ok: true } : { assetErrors: { hostile: c.expect.assetError } } }, reply, { payload: undefined, json: { assets: [1, 2] }, authorization: [] });
      const left = await stack.ledger.balance({ accountId: account.accountId });
      const used = (JSON.parse(reply.text) as Json).summary?.credits_used;
      if (!left.ok || CREDITS - left.value.available !== used) problems.push(`the summary says ${used} credits, the balance moved by ${left.ok ? CREDITS - left.value.available : "?"}`);
      if (trap.connections.length > trapped) problems.push(`a connection reached the trap: ${trap.connections.slice(trapped).join("; ")}`);
      if (!stack.processes.every((p) => p.isRunning())) problems.push(`a service stopped\n${stack.output().slice(-3000)}`);
      return problems;
    }

    it("every service is still running, the gateway is healthy, and no image payload was logged", async () => {
      expect(stack.processes.filter((p) => !p.isRunning()).map((p) => p.name)).toEqual([]);
      expect((await fetch(`${stack.baseUrl}/healthz`)).status).toBe(200);
      const logs = stack.output();
      expect([...mustNotBeLogged].filter((secret) => logs.includes(secret)).map((s) => `${s.slice(0, 16)}…`)).toEqual([]);
      expect(logs).not.toMatch(/iVBORw0KGgo/);
    });
  });

  it("no connection ever reached a refused address (the trap on 127.0.0.1 and ::1)", () => {
    expect(trap.connections).toEqual([]);
  });
});

function respond(res: ServerResponse, r: ServedResponse): void {
  const body = r.body === undefined ? undefined : Buffer.isBuffer(r.body) ? r.body : Buffer.from(r.body);
  const headers: Record<string, string> = { ...r.headers };
  if (body && !headers["transfer-encoding"] && !headers["content-length"]) headers["content-length"] = String(body.length);
  res.writeHead(r.status, headers);
  if (r.cutAfter !== undefined && body) {
    res.write(body.subarray(0, r.cutAfter), () => res.socket?.destroy());
    return;
  }
  res.end(body);
}
