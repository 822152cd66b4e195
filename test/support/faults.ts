import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LedgerEvent } from "@adrank/ledger-domain";
import { readAccountEvents } from "./ledger-events.ts";
import type { ServiceProcess } from "./service-process.ts";
import { freePort, type Stack } from "./stack.ts";

/**
 * A NATS server with JetStream of the test's own, on a loopback port, that the test may stop
 * and start again on the same port and store (the shared server is never touched).
 */
export async function startPrivateNats() {
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), "adrank-nats-"));
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn("/usr/sbin/nats-server", ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", storeDir], { stdio: "ignore" });
    const until = Date.now() + 10_000;
    while (Date.now() < until) {
      if (await canConnect(port)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`private nats-server did not listen on ${port}`);
  };
  const stop = async () => {
    const c = child;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once("exit", r));
    c.kill("SIGTERM");
    await exited;
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    restart: async (downMs: number) => {
      await stop();
      await new Promise((r) => setTimeout(r, downMs));
      await start();
    },
    close: async () => {
      await stop();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

/** Whether something accepts TCP connections on 127.0.0.1:`port` right now. */
export function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, "127.0.0.1");
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });
}

/**
 * A TCP proxy on loopback in front of a real server. `cut()` drops every connection and
 * refuses new ones, which is what a stopped PostgreSQL looks like to its clients; `freeze()`
 * keeps connections open but passes no byte either way and holds new connections unanswered,
 * which is what a partition or a hung server looks like; `restore()` lets bytes through again
 * (frozen connections resume where they stopped, as TCP does when a partition heals).
 */
export async function startTcpProxy(targetPort: number, targetHost = "127.0.0.1") {
  interface Pair {
    client: Socket;
    upstream: Socket | null;
  }
  const pairs = new Set<Pair>();
  let mode: "open" | "cut" | "frozen" = "open";
  const drop = (pair: Pair) => {
    pair.client.destroy();
    pair.upstream?.destroy();
    pairs.delete(pair);
  };
  const link = (pair: Pair) => {
    const upstream = connect(targetPort, targetHost);
    pair.upstream = upstream;
    upstream.on("error", () => drop(pair)).on("close", () => drop(pair));
    pair.client.pipe(upstream).pipe(pair.client);
    pair.client.resume();
  };
  const server: Server = createServer((client) => {
    if (mode === "cut") {
      client.destroy();
      return;
    }
    const pair: Pair = { client, upstream: null };
    pairs.add(pair);
    client.on("error", () => drop(pair)).on("close", () => drop(pair));
    client.pause();
    if (mode === "open") link(pair);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    cut() {
      mode = "cut";
      for (const pair of [...pairs]) drop(pair);
    },
    freeze() {
      mode = "frozen";
      for (const { client, upstream } of pairs) {
        client.unpipe();
        upstream?.unpipe();
        client.pause();
        upstream?.pause();
      }
    },
    restore() {
      const was = mode;
      mode = "open";
      if (was !== "frozen") return;
      for (const pair of pairs) {
        if (!pair.upstream) link(pair);
        else {
          pair.client.pipe(pair.upstream).pipe(pair.client);
          pair.client.resume();
          pair.upstream.resume();
        }
      }
    },
    close: () =>
      new Promise<void>((r) => {
        for (const pair of [...pairs]) drop(pair);
        server.close(() => r());
      }),
  };
}

/** Polls until `check` returns a value (not undefined) or the time is up. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < until) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not happen within ${timeoutMs} ms${last ? ` (last error: ${String(last)})` : ""}`);
}

/** What one HTTP answer told its caller about money: the request id and, for a 200, the credits it says it used. */
export interface BilledAnswer {
  requestId: string;
  status: number;
  /** `summary.credits_used` of a 200; null for an error answer. */
  creditsUsed: number | null;
  /** `summary.credits_remaining` of a 200 (null while the charge is pending). */
  creditsRemaining: number | null;
  /** `summary.credits_status` of a 200: "pending" when the ledger had not confirmed the charge when the answer went. */
  creditsStatus: "confirmed" | "pending" | null;
}

/** The money figures of one gateway answer (rank or pairwise). */
export function billedAnswer(res: {
  status: number;
  headers: Headers;
  body: { request_id?: string; summary?: { credits_used?: number; credits_remaining?: number | null; credits_status?: "confirmed" | "pending" } } | null;
}): BilledAnswer {
  const ok = res.status === 200 && res.body?.summary !== undefined;
  return {
    requestId: res.headers.get("x-request-id") ?? res.body?.request_id ?? "",
    status: res.status,
    creditsUsed: ok ? (res.body!.summary!.credits_used ?? 0) : null,
    creditsRemaining: ok ? (res.body!.summary!.credits_remaining ?? null) : null,
    creditsStatus: ok ? (res.body!.summary!.credits_status ?? null) : null,
  };
}

export interface ReservationFate {
  units: number;
  reservedEvents: number;
  /** unitsUsed of every UsageSettled event of this reservation. */
  settled: number[];
  expiredEvents: number;
}

export interface StreamAccount {
  events: number;
  granted: number;
  reservations: Map<string, ReservationFate>;
  /** Units charged by settlements: what the account paid. */
  charged: number;
}

/** One account's facts as the LEDGER stream holds them, folded per reservation. */
export async function accountInStream(stack: Pick<Stack, "nc" | "topo">, accountId: string): Promise<StreamAccount> {
  const events = (await readAccountEvents(stack.nc, stack.topo, accountId)).map((e) => e.event);
  const reservations = new Map<string, ReservationFate>();
  const fate = (id: string) => {
    let f = reservations.get(id);
    if (!f) reservations.set(id, (f = { units: 0, reservedEvents: 0, settled: [], expiredEvents: 0 }));
    return f;
  };
  let granted = 0;
  let charged = 0;
  for (const e of events as LedgerEvent[]) {
    if (e.type === "CreditsGranted") granted += e.credits;
    else if (e.type === "UsageReserved") {
      const f = fate(e.reservationId);
      f.reservedEvents++;
      f.units = e.units;
    } else if (e.type === "UsageSettled") {
      fate(e.reservationId).settled.push(e.unitsUsed);
      charged += e.unitsUsed;
    } else fate(e.reservationId).expiredEvents++;
  }
  return { events: events.length, granted, reservations, charged };
}

/**
 * Everything that must agree for one account once the dust has settled, as a list of
 * discrepancies (empty when all agree):
 * - every reservation was reserved once and ended exactly once (settled or expired);
 * - each 200 answer's `credits_used` is what its reservation was charged (a 200 that says its
 *   settlement was not confirmed, and every error answer, must have been charged nothing);
 * - the ledger's balance is the grant minus what the answers said they used, nothing reserved.
 */
export function billingDiscrepancies(stream: StreamAccount, balance: { available: number; reserved: number }, answers: BilledAnswer[]): string[] {
  const problems: string[] = [];
  for (const [id, f] of stream.reservations) {
    if (f.reservedEvents !== 1) problems.push(`reservation ${id} reserved ${f.reservedEvents} times`);
    const ends = f.settled.length + f.expiredEvents;
    if (ends !== 1) problems.push(`reservation ${id} ended ${ends} times (settled ${JSON.stringify(f.settled)}, expired ${f.expiredEvents})`);
  }
  for (const a of answers) {
    const f = stream.reservations.get(a.requestId);
    const charged = f ? f.settled.reduce((s, u) => s + u, 0) : 0;
    const told = a.creditsUsed ?? 0;
    // Pending or confirmed, what the answer said it cost is what the account paid (issue 33).
    if (charged !== told) problems.push(`request ${a.requestId}: answered ${a.status} with credits_used ${a.creditsUsed}${a.creditsStatus === "pending" ? " (pending)" : ""} but was charged ${charged}`);
    if (a.status === 200 && a.creditsStatus === null) problems.push(`request ${a.requestId}: answered 200 without summary.credits_status`);
  }
  const told = answers.reduce((s, a) => s + (a.creditsUsed ?? 0), 0);
  if (balance.reserved !== 0) problems.push(`${balance.reserved} credits still reserved`);
  if (balance.available !== stream.granted - told) problems.push(`balance ${balance.available} != granted ${stream.granted} - ${told} the answers say they used (the stream charged ${stream.charged})`);
  return problems;
}

/** The ledger's balance once no reservation is open (they settle or expire), polled. */
export async function settledBalance(stack: Pick<Stack, "ledger">, accountId: string, timeoutMs = 20_000): Promise<{ available: number; reserved: number }> {
  return eventually(async () => {
    const b = await stack.ledger.balance({ accountId });
    return b.ok && b.value.reserved === 0 ? b.value : undefined;
  }, timeoutMs, `open reservations of ${accountId} to settle or expire`);
}

/**
 * Waits until the Postgres projection of one account has caught up with the stream and agrees
 * with it: the same number of events (each once: they are keyed by stream and sequence), the same
 * available and reserved credits, and every reservation closed the way the stream closed it.
 */
export async function projectionAgrees(stack: Pick<Stack, "database" | "topo">, accountId: string, stream: StreamAccount, balance: { available: number; reserved: number }, timeoutMs = 20_000): Promise<void> {
  const db = stack.database.db;
  const name = stack.topo.streams.ledger.name;
  let last = "";
  await eventually(async () => {
    const [events, row, reservations] = await Promise.all([
      db.selectFrom("ledger_events").select((eb) => eb.fn.countAll<string>().as("n")).where("stream", "=", name).where("account_id", "=", accountId).executeTakeFirstOrThrow(),
      db.selectFrom("account_balances").select(["available", "reserved"]).where("stream", "=", name).where("account_id", "=", accountId).executeTakeFirst(),
      db.selectFrom("ledger_reservations").select(["reservation_id", "status", "units_used"]).where("stream", "=", name).where("account_id", "=", accountId).execute(),
    ]);
    const problems: string[] = [];
    if (Number(events.n) !== stream.events) problems.push(`${events.n} events projected, ${stream.events} in the stream`);
    if (!row || Number(row.available) !== balance.available || Number(row.reserved) !== balance.reserved) problems.push(`projected balance ${JSON.stringify(row)} != ledger ${JSON.stringify(balance)}`);
    if (reservations.length !== stream.reservations.size) problems.push(`${reservations.length} reservations projected, ${stream.reservations.size} in the stream`);
    for (const r of reservations) {
      const f = stream.reservations.get(r.reservation_id);
      const want = !f ? "missing" : f.settled.length > 0 ? `settled:${f.settled[0]}` : f.expiredEvents > 0 ? "expired:null" : "open:null";
      const got = `${r.status}:${r.status === "settled" ? r.units_used : null}`;
      if (want !== got) problems.push(`reservation ${r.reservation_id} projected ${got}, stream says ${want}`);
    }
    last = problems.join("; ");
    return problems.length === 0 ? true : undefined;
  }, timeoutMs, "the Postgres projection to agree with the stream").catch((err: unknown) => {
    throw new Error(`${String(err)}: ${last}`);
  });
}

/** Service processes that have died, apart from those the test killed on purpose. */
export function deadServices(stack: Pick<Stack, "processes">, killedOnPurpose: ReadonlyArray<ServiceProcess> = []): string[] {
  return stack.processes.filter((p) => !p.isRunning() && !killedOnPurpose.includes(p)).map((p) => `${p.name} (exit ${p.child.exitCode ?? p.child.signalCode})`);
}

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A TCP proxy in front of a NATS server that loses replies: once armed, the first client
 * connection that publishes to a subject containing `trigger` stops receiving anything from
 * the server for `muteMs` (its request reached the server and was handled, but the answer
 * never comes back, as in a partition right after the request), and is then dropped, so
 * the client reconnects through the proxy as it would after a network blip.
 */
export async function startReplyLosingProxy(targetPort: number) {
  const connections = new Set<{ client: Socket; upstream: Socket }>();
  let armed: { trigger: string; muteMs: number; resolve: (at: number) => void } | null = null;
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, "127.0.0.1");
    const conn = { client, upstream };
    connections.add(conn);
    let muted = false;
    let tail = "";
    const drop = () => {
      client.destroy();
      upstream.destroy();
      connections.delete(conn);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    client.on("data", (chunk: Buffer) => {
      upstream.write(chunk);
      if (!armed || muted) return;
      // A subject may straddle two chunks: look at the end of the previous one too.
      const text = tail + chunk.toString("latin1");
      tail = text.slice(-200);
      if (!/(^|\n)H?PUB /.test(text) || !text.includes(armed.trigger)) return;
      const { muteMs, resolve } = armed;
      armed = null;
      muted = true;
      resolve(Date.now());
      setTimeout(drop, muteMs);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (!muted) client.write(chunk);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `nats://127.0.0.1:${port}`,
    /** Arms the proxy; resolves with the time the trigger was seen. */
    loseRepliesAfter(trigger: string, muteMs: number): Promise<number> {
      return new Promise((resolve) => (armed = { trigger, muteMs, resolve }));
    },
    close: () =>
      new Promise<void>((r) => {
        for (const c of connections) {
          c.client.destroy();
          c.upstream.destroy();
        }
        server.close(() => r());
      }),
  };
}
