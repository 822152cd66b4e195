import { decide, evolve, initialState, type AccountRateLimits, type AccountRequestLimits, type AccountState, type LedgerCommand, type LedgerEvent, type Rejection } from "@adrank/ledger-domain";
import type { Topology } from "@adrank/messaging";
import type { EventLog } from "./event-log.ts";

/** One account as this replica knows it: the folded state and the last stream sequence in it. */
export interface AccountSnapshot {
  state: AccountState;
  lastSeq: number;
}

export type Executed =
  | { ok: true; event: LedgerEvent; snapshot: AccountSnapshot; now: number }
  | { ok: false; rejection: Rejection; snapshot: AccountSnapshot; now: number };

/** Appends kept losing to other writers; the command changed nothing and may be retried. */
export class ContentionError extends Error {
  override name = "ContentionError";
}

export interface AccountStoreOptions {
  log: EventLog;
  topo: Topology;
  /** Accounts whose state is kept in memory (least recently used are dropped). */
  cacheSize: number;
  /** Decide-and-append attempts per command before ContentionError. */
  maxAttempts: number;
  now: () => number;
  /** The account window's limits (configuration); the domain's defaults when absent. */
  accountRateLimits?: AccountRateLimits;
  /** The account's request and fetch windows' limits (configuration); the domain's defaults when absent. */
  accountRequestLimits?: AccountRequestLimits;
  /** Pause before the next attempt after a conflict (jitter keeps replicas from lock-stepping). */
  backoff?: (attempt: number) => Promise<void>;
}

export interface AccountStore {
  /** Decides `command` against the account and appends its event; serialized per account. */
  execute(accountId: string, command: LedgerCommand): Promise<Executed>;
  /** The account brought up to date with the stream. */
  read(accountId: string): Promise<AccountSnapshot>;
  /** Cached accounts, most recently used last. */
  cached(): Array<[string, AccountSnapshot]>;
  /** Resolves when every command accepted so far has finished. */
  idle(): Promise<void>;
  /** Drops every cached account, so the next command folds its account from the stream again (the stream was replaced). */
  forget(): void;
  /** Counters since start, for logs and tests. */
  stats(): AccountStoreStats;
}

export interface AccountStoreStats {
  commands: number;
  appended: number;
  /** Rejections that were first checked against the stream because the cached state might be stale. */
  refreshes: number;
  /** Appends refused because another writer got there first (each is followed by a catch-up). */
  conflicts: number;
  /** Appends answered as duplicates by the stream's Msg-Id window. */
  duplicates: number;
  /** Commands given up after maxAttempts conflicts. */
  exhausted: number;
  loads: number;
}

const defaultBackoff = (attempt: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.random() * Math.min(20, 2 * attempt)));

/**
 * The thin edge of the decider: load (from cache, else fold the account's subject), decide,
 * append with the expected subject sequence; on a conflict catch up from the last known
 * sequence and decide again. Commands for one account run one at a time in this process,
 * so a replica never races itself; other replicas are handled by the expected sequence.
 *
 * @example
 * const store = createAccountStore({ log, topo, cacheSize: 10_000, maxAttempts: 10, now: Date.now });
 * const r = await store.execute("acct1", { type: "GrantCredits", grantId: "g1", credits: 100 });
 */
export function createAccountStore(opts: AccountStoreOptions): AccountStore {
  const { log, topo } = opts;
  const backoff = opts.backoff ?? defaultBackoff;
  const cache = new Map<string, AccountSnapshot>();
  const queues = new Map<string, Promise<unknown>>();
  const stats: AccountStoreStats = { commands: 0, appended: 0, refreshes: 0, conflicts: 0, duplicates: 0, exhausted: 0, loads: 0 };

  const remember = (accountId: string, snapshot: AccountSnapshot) => {
    cache.delete(accountId);
    cache.set(accountId, snapshot);
    if (cache.size > opts.cacheSize) cache.delete(cache.keys().next().value!);
  };

  async function catchUp(accountId: string, from: AccountSnapshot): Promise<AccountSnapshot> {
    const newer = await log.readAfter(topo.ledgerAccount(accountId), from.lastSeq);
    if (newer.length === 0) return from;
    let state = from.state;
    for (const { event } of newer) state = evolve(state, event);
    return { state, lastSeq: newer[newer.length - 1]!.seq };
  }

  async function load(accountId: string): Promise<AccountSnapshot> {
    const hit = cache.get(accountId);
    if (hit) return hit;
    stats.loads++;
    const snapshot = await catchUp(accountId, { state: initialState(), lastSeq: 0 });
    remember(accountId, snapshot);
    return snapshot;
  }

  function serialize<T>(accountId: string, work: () => Promise<T>): Promise<T> {
    const previous = queues.get(accountId) ?? Promise.resolve();
    const run = previous.then(work, work);
    const tail = run.then(
      () => {},
      () => {},
    );
    queues.set(accountId, tail);
    void tail.then(() => {
      if (queues.get(accountId) === tail) queues.delete(accountId);
    });
    return run;
  }

  async function executeNow(accountId: string, command: LedgerCommand): Promise<Executed> {
    stats.commands++;
    const subject = topo.ledgerAccount(accountId);
    const cached = cache.get(accountId);
    let snapshot = cached ?? (await load(accountId));
    // Whether the snapshot is known to be the newest: an append is checked by the stream,
    // a rejection is not, so a rejection is only given on a state just read from the stream.
    let current = cached === undefined;
    for (let attempt = 1; ; ) {
      const now = opts.now();
      const decision = decide(command, snapshot.state, now, opts.accountRateLimits, opts.accountRequestLimits);
      if ("rejection" in decision) {
        if (current) return { ok: false, rejection: decision.rejection, snapshot, now };
        stats.refreshes++;
        snapshot = await catchUp(accountId, snapshot);
        remember(accountId, snapshot);
        current = true;
        continue;
      }
      // Every decision of this decider is one event, so an append is all-or-nothing.
      const [event] = decision.events;
      if (!event || decision.events.length !== 1) throw new Error(`expected one event from ${command.type}, got ${decision.events.length}`);
      let outcome;
      try {
        outcome = await log.append(subject, event, snapshot.lastSeq, msgIdOf(accountId, command));
      } catch (err) {
        // The append may or may not have landed: forget the account so the next command reloads it.
        cache.delete(accountId);
        throw err;
      }
      if (outcome.kind === "appended") {
        stats.appended++;
        snapshot = { state: evolve(snapshot.state, event), lastSeq: outcome.seq };
        remember(accountId, snapshot);
        return { ok: true, event, snapshot, now };
      }
      stats[outcome.kind === "conflict" ? "conflicts" : "duplicates"]++;
      // A conflict, or this very command is in the stream already (a retry, or another
      // replica's attempt): catch up and decide again on the state that includes it.
      const before = snapshot.lastSeq;
      snapshot = await catchUp(accountId, snapshot);
      remember(accountId, snapshot);
      current = true;
      if (outcome.kind === "duplicate" && snapshot.lastSeq === before) {
        throw new Error(`message id ${msgIdOf(accountId, command)} is taken by stream sequence ${outcome.seq}, not on ${subject}`);
      }
      if (attempt >= opts.maxAttempts) {
        stats.exhausted++;
        throw new ContentionError(`account ${accountId}: ${opts.maxAttempts} append attempts lost to concurrent writers`);
      }
      if (outcome.kind === "conflict") await backoff(attempt);
      attempt++;
    }
  }

  return {
    execute: (accountId, command) => serialize(accountId, () => executeNow(accountId, command)),
    read: (accountId) =>
      serialize(accountId, async () => {
        const cached = cache.get(accountId);
        const snapshot = cached ? await catchUp(accountId, cached) : await load(accountId);
        remember(accountId, snapshot);
        return snapshot;
      }),
    cached: () => [...cache.entries()],
    forget: () => cache.clear(),
    async idle() {
      while (queues.size > 0) await Promise.allSettled([...queues.values()]);
    },
    stats: () => ({ ...stats }),
  };
}

/**
 * The Nats-Msg-Id of a command's event. It includes the account so that two accounts can
 * never shadow each other's commands inside the stream's duplicate window.
 */
export function msgIdOf(accountId: string, command: LedgerCommand): string {
  switch (command.type) {
    case "GrantCredits":
      return `${accountId}:${command.grantId}:grant`;
    case "ReserveUsage":
      return `${accountId}:${command.reservationId}:reserve`;
    case "SettleUsage":
      return `${accountId}:${command.reservationId}:settle`;
    case "ExpireReservation":
      return `${accountId}:${command.reservationId}:expire`;
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}
