import { DeliverPolicy, type JetStreamClient, type JetStreamManager } from "@nats-io/jetstream";
import type { Kysely } from "kysely";
import type { Database } from "@adrank/db";
import { balanceOf, evolve, initialState, type AccountState, type LedgerEvent } from "@adrank/ledger-domain";
import type { Topology } from "@adrank/messaging";
import { accountOfSubject, decodeEvent } from "./event-codec.ts";
import { createEventLog } from "./event-log.ts";

export interface Difference {
  accountId: string;
  /** e.g. "granted", "last_seq", "reservation r1 status". */
  field: string;
  stream: unknown;
  projection: unknown;
}

export interface ReconcileReport {
  accountsChecked: number;
  /** Accounts whose projection has not yet applied the stream's newest event: not compared. */
  behind: Array<{ accountId: string; streamSeq: number; projectedSeq: number }>;
  differences: Difference[];
}

interface Folded {
  state: AccountState;
  lastSeq: number;
  count: number;
  /** Every reservation as the events tell it, beyond what the state remembers. */
  reservations: Map<string, { status: string; units: number; unitsUsed: number | null }>;
}

const emptyFold = (): Folded => ({ state: initialState(), lastSeq: 0, count: 0, reservations: new Map() });

function fold(f: Folded, seq: number, event: LedgerEvent): void {
  f.state = evolve(f.state, event);
  f.lastSeq = seq;
  f.count++;
  if (event.type === "UsageReserved") f.reservations.set(event.reservationId, { status: "open", units: event.units, unitsUsed: null });
  if (event.type === "UsageSettled") f.reservations.set(event.reservationId, { status: "settled", units: event.unitsReserved, unitsUsed: event.unitsUsed });
  if (event.type === "ReservationExpired") f.reservations.set(event.reservationId, { status: "expired", units: event.unitsReserved, unitsUsed: 0 });
}

/**
 * Compares the Postgres projection with the state folded from the LEDGER stream, for one
 * account or for all of them, and lists every difference. Accounts the projection has not
 * caught up with yet are reported as behind, not as different.
 *
 * @example
 * const report = await reconcile({ js, jsm, db, topo });
 * if (report.differences.length) console.error(report.differences);
 */
export async function reconcile({ js, jsm, db, topo, accountId }: { js: JetStreamClient; jsm: JetStreamManager; db: Kysely<Database>; topo: Topology; accountId?: string }): Promise<ReconcileReport> {
  const stream = topo.streams.ledger.name;
  const prefix = topo.ledgerAccount("x").slice(0, -1);
  const folds = new Map<string, Folded>();

  if (accountId !== undefined) {
    const f = emptyFold();
    for (const { seq, event } of await createEventLog(js, jsm, stream).readAfter(topo.ledgerAccount(accountId), 0)) fold(f, seq, event);
    if (f.count > 0) folds.set(accountId, f);
  } else {
    const info = await jsm.streams.info(stream);
    const lastSeq = info.state.last_seq;
    if (info.state.messages > 0) {
      // One ordered pass over the whole stream, grouped by account.
      const consumer = await js.consumers.get(stream, { filter_subjects: topo.ledgerAccountWildcard, deliver_policy: DeliverPolicy.All });
      const messages = await consumer.consume({ max_messages: 1_000 });
      try {
        for await (const m of messages) {
          const id = accountOfSubject(m.subject, prefix);
          const f = folds.get(id) ?? emptyFold();
          folds.set(id, f);
          fold(f, m.seq, decodeEvent(m.data));
          if (m.seq >= lastSeq || m.info.pending === 0) break;
        }
      } finally {
        await messages.close().catch(() => {});
      }
    }
  }

  let accountsQuery = db.selectFrom("ledger_accounts").selectAll();
  let reservationsQuery = db.selectFrom("ledger_reservations").select(["account_id", "reservation_id", "status", "units", "units_used"]);
  if (accountId !== undefined) {
    accountsQuery = accountsQuery.where("account_id", "=", accountId);
    reservationsQuery = reservationsQuery.where("account_id", "=", accountId);
  }
  const projected = new Map((await accountsQuery.execute()).map((a) => [a.account_id, a]));
  const projectedReservations = new Map<string, Map<string, { status: string; units: number; unitsUsed: number | null }>>();
  for (const r of await reservationsQuery.execute()) {
    const m = projectedReservations.get(r.account_id) ?? new Map();
    projectedReservations.set(r.account_id, m);
    m.set(r.reservation_id, { status: r.status, units: r.units, unitsUsed: r.units_used });
  }

  const report: ReconcileReport = { accountsChecked: 0, behind: [], differences: [] };
  const ids = [...new Set([...folds.keys(), ...projected.keys()])].sort();
  for (const id of ids) {
    report.accountsChecked++;
    const f = folds.get(id) ?? emptyFold();
    const p = projected.get(id);
    const differ = (field: string, stream: unknown, projection: unknown) => {
      if (stream !== projection) report.differences.push({ accountId: id, field, stream, projection });
    };
    if (!p) {
      report.behind.push({ accountId: id, streamSeq: f.lastSeq, projectedSeq: 0 });
      continue;
    }
    if (p.last_seq < f.lastSeq) {
      report.behind.push({ accountId: id, streamSeq: f.lastSeq, projectedSeq: p.last_seq });
      continue;
    }
    const b = balanceOf(f.state);
    differ("last_seq", f.lastSeq, p.last_seq);
    differ("event_count", f.count, p.event_count);
    differ("granted", b.granted, p.granted);
    differ("used", b.used, p.used);
    differ("reserved", b.reserved, p.reserved);
    const rows = projectedReservations.get(id) ?? new Map();
    for (const rid of new Set([...f.reservations.keys(), ...rows.keys()])) {
      const s = f.reservations.get(rid);
      const q = rows.get(rid);
      differ(`reservation ${rid} status`, s?.status ?? null, q?.status ?? null);
      differ(`reservation ${rid} units`, s?.units ?? null, q?.units ?? null);
      differ(`reservation ${rid} units_used`, s?.unitsUsed ?? null, q?.unitsUsed ?? null);
    }
  }
  return report;
}
