import { sql, type Kysely } from "kysely";
import { withConfirmedCredits } from "@adrank/request-records";
import type { Database } from "../tables/index.ts";

/** A settle the ledger has not confirmed yet, as the gateway records it before answering. */
export interface PendingSettlement {
  /** The LEDGER stream it belongs to (namespaces may share the database). */
  stream: string;
  reservationId: string;
  requestId: string;
  accountId: string;
  unitsUsed: number;
  /** The settle's model usage, exactly as it is sent to the ledger. */
  modelUsage: unknown[] | null;
}

/** A due settlement, claimed by one relay until `next_attempt_at` (the claim moved it forward). */
export interface ClaimedSettlement extends PendingSettlement {
  attempts: number;
}

/** How a relayed settle ended: charged (the ledger's figures), or refused (nothing was charged). */
export type SettlementEnd = { state: "applied"; creditsUsed: number; balance: number } | { state: "refused"; reason: string };

const rowToPending = (r: { stream: string; reservation_id: string; request_id: string; account_id: string; units_used: number; model_usage: unknown; attempts: number }): ClaimedSettlement => ({
  stream: r.stream,
  reservationId: r.reservation_id,
  requestId: r.request_id,
  accountId: r.account_id,
  unitsUsed: r.units_used,
  modelUsage: Array.isArray(r.model_usage) ? r.model_usage : null,
  attempts: r.attempts,
});

/**
 * The settlement outbox (issue 33): settles the ledger did not confirm at once, written before
 * the answer goes, then relayed until the ledger answers, and the stored answer of the request
 * brought up to date with what was really charged.
 */
export function settlementsRepository(db: Kysely<Database>) {
  return {
    /**
     * Records a settle to relay. A second record of the same reservation changes nothing. The
     * relay leaves it alone for `firstAttemptAfterMs` while its request keeps asking the ledger.
     */
    async record(s: PendingSettlement, firstAttemptAfterMs: number): Promise<void> {
      await db
        .insertInto("settlement_outbox")
        .values({
          stream: s.stream,
          reservation_id: s.reservationId,
          request_id: s.requestId,
          account_id: s.accountId,
          units_used: s.unitsUsed,
          model_usage: s.modelUsage === null ? null : JSON.stringify(s.modelUsage),
          next_attempt_at: sql<Date>`now() + make_interval(secs => ${firstAttemptAfterMs / 1000})`,
        })
        .onConflict((oc) => oc.columns(["stream", "reservation_id"]).doNothing())
        .execute();
    },

    /**
     * Claims up to `limit` due settlements of `stream`: each one's next attempt moves `retryMs`
     * ahead in the same statement, so another relay does not take it meanwhile. A relay that
     * dies leaves it due again then; applying it twice is harmless (the ledger answers a repeat
     * with the first outcome).
     */
    async claimDue(stream: string, limit: number, retryMs: number): Promise<ClaimedSettlement[]> {
      const rows = await db
        .updateTable("settlement_outbox")
        .set({ attempts: sql<number>`attempts + 1`, next_attempt_at: sql<Date>`now() + make_interval(secs => ${retryMs / 1000})` })
        .where("stream", "=", stream)
        .where((eb) =>
          eb(
            "reservation_id",
            "in",
            eb
              .selectFrom("settlement_outbox")
              .select("reservation_id")
              .where("stream", "=", stream)
              .where("state", "=", "pending")
              .where("next_attempt_at", "<=", sql<Date>`now()`)
              .orderBy("next_attempt_at")
              .limit(limit)
              .forUpdate()
              .skipLocked(),
          ),
        )
        .returning(["stream", "reservation_id", "request_id", "account_id", "units_used", "model_usage", "attempts"])
        .execute();
      return rows.map(rowToPending);
    },

    /** Records how a settle ended. Only a pending one changes: the first end recorded is the one kept. */
    async finish(stream: string, reservationId: string, end: SettlementEnd): Promise<void> {
      await db
        .updateTable("settlement_outbox")
        .set(
          end.state === "applied"
            ? { state: "applied", credits_used: end.creditsUsed, balance: end.balance, last_error: null, settled_at: sql<Date>`now()` }
            : { state: "refused", credits_used: 0, last_error: end.reason.slice(0, 500), settled_at: sql<Date>`now()` },
        )
        .where("stream", "=", stream)
        .where("reservation_id", "=", reservationId)
        .where("state", "=", "pending")
        .execute();
    },

    /** Notes why an attempt failed (the claim already scheduled the next one). */
    async failed(stream: string, reservationId: string, error: string): Promise<void> {
      await db.updateTable("settlement_outbox").set({ last_error: error.slice(0, 500) }).where("stream", "=", stream).where("reservation_id", "=", reservationId).execute();
    },

    /**
     * Brings stored answers that still say "pending" up to date with their settlement's figures,
     * at most `limit` at a time, oldest first. A settlement whose request row is not there (a
     * plain answer still being stored) is tried again next time until `giveUpMs` after it was
     * settled. Returns how many answers changed.
     */
    async reportSettled(stream: string, limit: number, giveUpMs: number): Promise<number> {
      const settled = await db
        .selectFrom("settlement_outbox")
        .select(["reservation_id", "request_id", "state", "credits_used", "balance", "settled_at"])
        .where("stream", "=", stream)
        .where("state", "<>", "pending")
        .where("result_updated_at", "is", null)
        .orderBy("settled_at")
        .limit(limit)
        .execute();
      let changed = 0;
      for (const s of settled) {
        const done = await db.transaction().execute(async (trx) => {
          const row = await trx.selectFrom("api_requests").select(["result_body"]).where("request_id", "=", s.request_id).forUpdate().executeTakeFirst();
          const tooOld = s.settled_at !== null && Date.now() - s.settled_at.getTime() > giveUpMs;
          if (!row?.result_body) return tooOld;
          const body = withConfirmedCredits(row.result_body, s.state === "applied" ? { creditsUsed: s.credits_used ?? 0, creditsRemaining: s.balance } : { creditsUsed: 0, creditsRemaining: null });
          if (body !== null) {
            await trx.updateTable("api_requests").set({ result_body: body }).where("request_id", "=", s.request_id).execute();
            changed++;
          }
          return true;
        });
        if (done) await db.updateTable("settlement_outbox").set({ result_updated_at: sql<Date>`now()` }).where("stream", "=", stream).where("reservation_id", "=", s.reservation_id).execute();
      }
      return changed;
    },

    /** Of these reservations, the ones whose settle is still being relayed: never to be expired. */
    async pendingAmong(stream: string, reservationIds: readonly string[]): Promise<Set<string>> {
      if (reservationIds.length === 0) return new Set();
      const rows = await db
        .selectFrom("settlement_outbox")
        .select("reservation_id")
        .where("stream", "=", stream)
        .where("state", "=", "pending")
        .where("reservation_id", "in", reservationIds)
        .execute();
      return new Set(rows.map((r) => r.reservation_id));
    },

    /** The outbox state of each of these reservations that has a row (reconcile). */
    async statesOf(stream: string, reservationIds: readonly string[]): Promise<Map<string, "pending" | "applied" | "refused">> {
      if (reservationIds.length === 0) return new Map();
      const rows = await db.selectFrom("settlement_outbox").select(["reservation_id", "state"]).where("stream", "=", stream).where("reservation_id", "in", reservationIds).execute();
      return new Map(rows.map((r) => [r.reservation_id, r.state]));
    },

    /** Settlements not applied yet, for the gateway's gauge. */
    async countPending(stream: string): Promise<number> {
      const r = await db.selectFrom("settlement_outbox").select(sql<number>`count(*)::int`.as("n")).where("stream", "=", stream).where("state", "=", "pending").executeTakeFirstOrThrow();
      return r.n;
    },
  };
}

export type SettlementsRepository = ReturnType<typeof settlementsRepository>;
