import type { JetStreamManager } from "@nats-io/jetstream";
import type { Kysely } from "kysely";
import type { Database } from "@adrank/db";
import type { LedgerLogger } from "../logger.ts";
import { judgeStream, type MirrorProblem } from "./identity.ts";
import { mirrorStore } from "./store.ts";

export interface StreamGuard {
  /** Why projection and billing are paused, in one sentence; null while stream and mirror agree. */
  problem(): string | null;
  /** Checks now; resolves with the problem in force. Throws only when neither side could be read. */
  check(): Promise<string | null>;
  /** Persists a problem found elsewhere (the projection's per-event check) and applies it at once. */
  halt(problem: MirrorProblem): Promise<void>;
  /** Called when the problem appears, changes or clears. */
  onChange(listener: (problem: string | null) => void): void;
  stop(): void;
}

export interface StreamGuardOptions {
  db: Kysely<Database>;
  jsm: JetStreamManager;
  stream: string;
  logger: LedgerLogger;
  /** How often the stream's identity is compared with the mirror's. Default 2 s. */
  intervalMs?: number;
}

const isStreamNotFound = (err: unknown) => err instanceof Error && /stream not found/i.test(err.message);

/**
 * Watches that the LEDGER stream on the servers is the one the Postgres mirror follows (same
 * creation time, not behind what was projected). The first replica to see a mismatch marks
 * the mirror halted in Postgres, so every replica, the reconcile command and the operator see
 * the same sentence; only an operator command (rebuild or reseed) clears it. A stream or a
 * database that cannot be reached is an outage, not a mismatch: the last verdict stays.
 */
export function startStreamGuard({ db, jsm, stream, logger, intervalMs = 2_000 }: StreamGuardOptions): StreamGuard {
  const mirror = mirrorStore(db, stream);
  const listeners: Array<(problem: string | null) => void> = [];
  let current: string | null = null;
  const set = (problem: string | null) => {
    if (problem === current) return;
    current = problem;
    if (problem) logger.error({ stream, problem }, "ledger mirror halted");
    else logger.info({ stream }, "ledger stream and mirror agree");
    for (const l of listeners) l(problem);
  };

  async function check(): Promise<string | null> {
    // The mirror first: it only ever lags the stream, so read after it the stream is never behind a healthy mirror.
    let row = await mirror.read();
    let info;
    try {
      info = await jsm.streams.info(stream);
    } catch (err) {
      if (!isStreamNotFound(err)) throw err;
      set(`The LEDGER stream "${stream}" does not exist on the NATS servers; billing is paused until it is back (a ledger replica creates it at start; if NATS lost its data, see docs/ledger-mirror.md).`);
      return current;
    }
    const identity = { name: stream, created: new Date(info.created), lastSeq: info.state.last_seq };
    row ??= await mirror.claim(identity.created);
    if (row.status === "halted") {
      set(row.problem ?? `The ledger mirror of "${stream}" is halted.`);
      return current;
    }
    const problem = judgeStream(row, identity);
    if (problem) {
      await mirror.halt(problem.sentence);
      set((await mirror.read())?.problem ?? problem.sentence);
      return current;
    }
    set(null);
    return null;
  }

  let stopped = false;
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (stopped || running) return;
    running = check()
      .catch((err: unknown) => logger.warn({ err, stream }, "could not compare the LEDGER stream with its mirror: keeping the last verdict"))
      .finally(() => (running = null));
  }, intervalMs);
  timer.unref();

  return {
    problem: () => current,
    check,
    async halt(problem) {
      await mirror.halt(problem.sentence);
      set((await mirror.read())?.problem ?? problem.sentence);
    },
    onChange: (listener) => void listeners.push(listener),
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
