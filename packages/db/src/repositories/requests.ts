import { sql, type Kysely } from "kysely";
import { reportedCredits, type ReportedCredits } from "@adrank/request-records";
import type { Database } from "../tables/index.ts";
import type { ApiRequestRow } from "../tables/requests.ts";
import { cutOutImages, loadWithImages, saveImages, storeWithImages } from "./stored-images.ts";

export type RequestOperation = "rank" | "pairwise" | "rank_audiences";

export interface NewRequest {
  requestId: string;
  /** The deployment's ADRANK_NAMESPACE ("" by default): takeovers stay inside it. */
  namespace?: string;
  /** When the request arrived (default: the database's now); a whole millisecond, so the console's paging cursor matches it exactly. */
  createdAt?: Date;
  accountId: string;
  keyId: string;
  operation: RequestOperation;
  mode: "sync" | "async";
  fingerprint: string;
  progressTotal: number;
  /** The process that runs it, and how long it promises to renew (ms): another takes over after. */
  leaseOwner: string;
  leaseMs: number;
  /** Asynchronous requests: the body (to run again after a crash), the 202 body and the webhook. */
  requestBody?: string;
  acceptedBody?: string;
  webhookUrl?: string;
  reservationId?: string;
  /**
   * An asynchronous request that waits for a free slot instead of starting now: attempt 0
   * until a sweep starts it. It is written under the owner's lease, like any other, and
   * `release` hands it over once the 202 is certain.
   */
  queued?: boolean;
}

/** A synchronous request without a key, as it is recorded once it has its answer. */
export type FinishedRequest = Omit<NewRequest, "leaseOwner" | "leaseMs" | "mode">;

export type Claim =
  | { kind: "claimed" }
  /** The key is taken (within its 24 h) by this request: compare fingerprints, then replay or wait. */
  | { kind: "taken"; requestId: string; operation: string; fingerprint: string };

export interface FinishedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A request as the API shows it: its state, and its result once it has one. */
export interface RequestView {
  requestId: string;
  accountId: string;
  operation: RequestOperation;
  mode: "sync" | "async";
  state: "running" | "succeeded" | "failed";
  fingerprint: string;
  createdAt: Date;
  finishedAt: Date | null;
  progressDone: number;
  progressTotal: number;
  /** The running owner's lease has run out: it died, and the request may be taken over. */
  abandoned: boolean;
  /** Running, but not started yet: it waits for a gateway with a free slot (NewRequest.queued). */
  queued: boolean;
  /** What POST answered (the 202 body of an async request, or the result of a sync one). */
  accepted: FinishedResponse | null;
  /** The finished response; null while running. */
  result: FinishedResponse | null;
  error: string | null;
  webhook: { id: string; url: string; state: "pending" | "delivered" | "failed"; attempts: number } | null;
}

/** What a gateway taking over an abandoned request needs to run it again. */
export interface TakenOver {
  requestId: string;
  accountId: string;
  keyId: string;
  operation: RequestOperation;
  mode: "sync" | "async";
  attempt: number;
  reservationId: string | null;
  reservedAt: Date | null;
  createdAt: Date;
  /** Asynchronous requests only: the body, images restored. */
  requestBody: string | null;
  webhookUrl: string | null;
}

export interface RequestSummary {
  requestId: string;
  operation: RequestOperation;
  mode: "sync" | "async";
  state: "running" | "succeeded" | "failed";
  status: number | null;
  progressDone: number;
  progressTotal: number;
  createdAt: Date;
  finishedAt: Date | null;
  webhookState: "pending" | "delivered" | "failed" | null;
}

const leaseUntil = (ms: number) => sql<Date>`now() + make_interval(secs => ${ms / 1000})`;

/**
 * Durable requests in PostgreSQL: the row a request writes when it starts (idempotent or
 * asynchronous ones) or ends (every one), the Idempotency-Key that points at it, the lease
 * its runner renews, and its finished response. Times that decide leases and key expiry
 * are the database's, so gateways with skewed clocks agree.
 */
export function requestsRepository(db: Kysely<Database>) {
  /**
   * Many finished requests at once (a gateway under load groups them): the answers without
   * images in one insert, each one with images in a transaction of its own. All or nothing
   * for the single insert: a caller that needs to know which row failed writes them one by one.
   */
  async function recordFinishedMany(items: ReadonlyArray<{ request: FinishedRequest; response: FinishedResponse }>): Promise<void> {
    const plain = [];
    const withImages = [];
    for (const { request: r, response } of items) {
      const { template, images } = cutOutImages(response.body);
      const row = {
        ...rowOf({ ...r, mode: "sync", leaseOwner: "", leaseMs: 0 }, null),
        lease_owner: null,
        lease_expires_at: null,
        state: "succeeded" as const,
        progress_done: r.progressTotal,
        finished_at: sql<Date>`now()`,
        result_status: response.status,
        result_headers: JSON.stringify(response.headers),
        result_body: template,
      };
      if (images.size === 0) plain.push(row);
      else withImages.push({ row, images, requestId: r.requestId });
    }
    const writes: Array<Promise<unknown>> = [];
    if (plain.length > 0) writes.push(db.insertInto("api_requests").values(plain).execute());
    for (const { row, images, requestId } of withImages) {
      writes.push(
        db.transaction().execute(async (trx) => {
          await trx.insertInto("api_requests").values(row).execute();
          await saveImages(trx, requestId, images);
        }),
      );
    }
    await Promise.all(writes);
  }

  /**
   * A plain request that ended without an answer to store (its client left): one row, failed,
   * with the sentence that says why and what was billed.
   */
  async function recordFailed(r: FinishedRequest, error: string): Promise<void> {
    await db
      .insertInto("api_requests")
      .values({
        ...rowOf({ ...r, mode: "sync", leaseOwner: "", leaseMs: 0 }, null),
        lease_owner: null,
        lease_expires_at: null,
        state: "failed" as const,
        finished_at: sql<Date>`now()`,
        error,
      })
      .execute();
  }

  const toTakenOver = async (r: ApiRequestRow): Promise<TakenOver> => ({
    requestId: r.request_id,
    accountId: r.account_id,
    keyId: r.key_id,
    operation: r.operation,
    mode: r.mode,
    attempt: r.attempt,
    reservationId: r.reservation_id,
    reservedAt: r.reserved_at,
    createdAt: r.created_at,
    requestBody: r.request_body === null ? null : await loadWithImages(db, r.request_body),
    webhookUrl: r.webhook_url,
  });

  async function findView(requestId: string, accountId: string | null): Promise<RequestView | null> {
    const r = await db
      .selectFrom("api_requests as r")
      .leftJoin("webhook_deliveries as w", "w.request_id", "r.request_id")
      .select([
        "r.request_id", "r.account_id", "r.operation", "r.mode", "r.state", "r.fingerprint", "r.created_at", "r.finished_at", "r.progress_done", "r.progress_total",
        "r.accepted_body", "r.result_status", "r.result_headers", "r.result_body", "r.error", "r.webhook_url",
        sql<boolean>`r.state = 'running' and r.lease_expires_at < now()`.as("abandoned"),
        sql<boolean>`r.state = 'running' and r.attempt = 0`.as("queued"),
        "w.id as webhook_id", "w.state as webhook_state", "w.attempts as webhook_attempts",
      ])
      .where("r.request_id", "=", requestId)
      .$if(accountId !== null, (q) => q.where("r.account_id", "=", accountId!))
      .executeTakeFirst();
    if (!r) return null;
    const result = r.result_status !== null && r.result_body !== null ? { status: r.result_status, headers: r.result_headers ?? {}, body: await loadWithImages(db, r.result_body) } : null;
    const accepted = r.accepted_body !== null ? { status: 202, headers: {}, body: r.accepted_body } : r.mode === "sync" ? result : null;
    return {
      requestId: r.request_id,
      accountId: r.account_id,
      operation: r.operation,
      mode: r.mode,
      state: r.state,
      fingerprint: r.fingerprint,
      createdAt: r.created_at,
      finishedAt: r.finished_at,
      progressDone: r.progress_done,
      progressTotal: r.progress_total,
      abandoned: r.abandoned,
      queued: r.queued,
      accepted,
      result,
      error: r.error,
      webhook:
        r.webhook_url === null
          ? null
          : { id: r.webhook_id ?? "", url: r.webhook_url, state: r.webhook_state ?? "pending", attempts: r.webhook_attempts ?? 0 },
    };
  }

  return {
    /**
     * Creates the running row, and when `idempotencyKey` is given, claims the key for it in the
     * same transaction. A key older than `keyTtlHours` is reclaimed (its old request stays
     * fetchable). A taken key rolls everything back and says which request holds it.
     */
    async start(r: NewRequest, idempotencyKey: string | null, keyTtlHours: number): Promise<Claim> {
      return db.transaction().execute(async (trx) => {
        if (idempotencyKey !== null) {
          const inserted = await trx
            .insertInto("idempotency_keys")
            .values({ account_id: r.accountId, key: idempotencyKey, request_id: r.requestId, operation: r.operation, fingerprint: r.fingerprint })
            .onConflict((oc) =>
              oc.columns(["account_id", "key"]).doUpdateSet({ request_id: r.requestId, operation: r.operation, fingerprint: r.fingerprint, created_at: sql`now()` })
                .where("idempotency_keys.created_at", "<", sql<Date>`now() - make_interval(hours => ${keyTtlHours})`),
            )
            .returning("request_id")
            .executeTakeFirst();
          if (!inserted) {
            const holder = await trx
              .selectFrom("idempotency_keys")
              .select(["request_id", "operation", "fingerprint"])
              .where("account_id", "=", r.accountId)
              .where("key", "=", idempotencyKey)
              .executeTakeFirstOrThrow();
            return { kind: "taken" as const, requestId: holder.request_id, operation: holder.operation, fingerprint: holder.fingerprint };
          }
        }
        // The row first, then its images (their links point at it), then the body's template in the row.
        await trx.insertInto("api_requests").values(rowOf(r, null)).execute();
        if (r.requestBody !== undefined) {
          const template = await storeWithImages(trx, r.requestId, r.requestBody);
          await trx.updateTable("api_requests").set({ request_body: template }).where("request_id", "=", r.requestId).execute();
        }
        return { kind: "claimed" as const };
      });
    },

    /** A synchronous request without a key, once it has its answer: one insert unless it carries images to store. */
    async recordFinished(r: FinishedRequest, response: FinishedResponse): Promise<void> {
      await recordFinishedMany([{ request: r, response }]);
    },

    recordFinishedMany,
    recordFailed,

    /**
     * Ends a running request: its response (or failure) is stored, the lease and the stored
     * body dropped, and a webhook delivery queued when it has a webhook_url. Only the lease's
     * owner finishes it; false when another process has taken it over meanwhile.
     */
    async finish(
      requestId: string,
      owner: string,
      end: { state: "succeeded" | "failed"; response: FinishedResponse | null; error?: string; webhookDeliveryId?: string },
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom("api_requests")
          .select(["account_id", "webhook_url", "progress_total"])
          .where("request_id", "=", requestId)
          .where("state", "=", "running")
          .where("lease_owner", "=", owner)
          .forUpdate()
          .executeTakeFirst();
        if (!row) return false;
        const template = end.response ? await storeWithImages(trx, requestId, end.response.body) : null;
        await trx
          .updateTable("api_requests")
          .set({
            state: end.state,
            result_status: end.response?.status ?? null,
            result_headers: end.response ? JSON.stringify(end.response.headers) : null,
            result_body: template,
            error: end.error ?? null,
            ...(end.state === "succeeded" ? { progress_done: row.progress_total } : {}),
            request_body: null,
            lease_owner: null,
            lease_expires_at: null,
            finished_at: sql<Date>`now()`,
          })
          .where("request_id", "=", requestId)
          .execute();
        if (row.webhook_url !== null && end.webhookDeliveryId !== undefined) {
          await trx
            .insertInto("webhook_deliveries")
            .values({ id: end.webhookDeliveryId, request_id: requestId, account_id: row.account_id, url: row.webhook_url, state: "pending", next_attempt_at: sql<Date>`now()` })
            .onConflict((oc) => oc.column("request_id").doNothing())
            .execute();
        }
        return true;
      });
    },

    /**
     * Forgets a request that ended before it did anything billable (refused with 402/429/503,
     * or our own failure): its row and its key go, so a retry with the same key runs afresh.
     */
    async abandon(requestId: string, owner: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const gone = await trx.deleteFrom("api_requests").where("request_id", "=", requestId).where("state", "=", "running").where("lease_owner", "=", owner).returning("account_id").executeTakeFirst();
        if (gone) await trx.deleteFrom("idempotency_keys").where("account_id", "=", gone.account_id).where("request_id", "=", requestId).execute();
      });
    },

    /** Extends the owner's lease; false when it was lost (taken over, finished or abandoned). */
    async renewLease(requestId: string, owner: string, leaseMs: number): Promise<boolean> {
      const r = await db
        .updateTable("api_requests")
        .set({ lease_expires_at: leaseUntil(leaseMs) })
        .where("request_id", "=", requestId)
        .where("state", "=", "running")
        .where("lease_owner", "=", owner)
        .executeTakeFirst();
      return r.numUpdatedRows > 0n;
    },

    /**
     * Ends the owner's lease on a queued request at once, so that the sweep of whichever
     * gateway has a free slot first starts it (as attempt 1). False when it is not the owner's.
     */
    async release(requestId: string, owner: string): Promise<boolean> {
      const r = await db
        .updateTable("api_requests")
        .set({ lease_expires_at: sql<Date>`now()` })
        .where("request_id", "=", requestId)
        .where("state", "=", "running")
        .where("lease_owner", "=", owner)
        .executeTakeFirst();
      return r.numUpdatedRows > 0n;
    },

    async setProgress(requestId: string, done: number): Promise<void> {
      await db.updateTable("api_requests").set({ progress_done: done }).where("request_id", "=", requestId).where("state", "=", "running").execute();
    },

    async setReservation(requestId: string, reservationId: string): Promise<void> {
      await db.updateTable("api_requests").set({ reservation_id: reservationId, reserved_at: sql<Date>`now()` }).where("request_id", "=", requestId).execute();
    },

    /**
     * What the stored answers of one deployment (namespace) that finished since `since` told
     * their callers about credits, for `reconcile` to compare with the ledger: each answer's
     * reservation (its request id unless a takeover reserved under another) and its summary's
     * credit fields, read from the stored text without restoring its images.
     */
    async reportedCreditsSince(namespace: string, since: Date, accountId?: string): Promise<Array<{ requestId: string; accountId: string; reservationId: string; finishedAt: Date | null; reported: ReportedCredits | null }>> {
      const rows = await db
        .selectFrom("api_requests")
        .select(["request_id", "account_id", "reservation_id", "finished_at", "result_body"])
        .where("namespace", "=", namespace)
        .where("state", "=", "succeeded")
        .where("finished_at", ">=", since)
        .$if(accountId !== undefined, (q) => q.where("account_id", "=", accountId!))
        .execute();
      return rows.map((r) => ({
        requestId: r.request_id,
        accountId: r.account_id,
        reservationId: r.reservation_id ?? r.request_id,
        finishedAt: r.finished_at,
        reported: r.result_body === null ? null : reportedCredits(r.result_body),
      }));
    },

    /** One request of one account; null for an unknown id or another account's. */
    async find(requestId: string, accountId: string): Promise<RequestView | null> {
      return findView(requestId, accountId);
    },

    /** One request whoever owns it: for the gateway's own bookkeeping, never for an answer to a caller. */
    async findById(requestId: string): Promise<RequestView | null> {
      return findView(requestId, null);
    },

    /**
     * Takes over one request whose owner's lease ran out: this process becomes its owner and
     * the attempt count goes up. Null when it is not abandoned (finished, or its owner lives).
     */
    async takeOver(requestId: string, owner: string, leaseMs: number, namespace = ""): Promise<TakenOver | null> {
      const r = await db
        .updateTable("api_requests")
        .set({ lease_owner: owner, lease_expires_at: leaseUntil(leaseMs), attempt: sql<number>`attempt + 1` })
        .where("request_id", "=", requestId)
        .where("namespace", "=", namespace)
        .where("state", "=", "running")
        .where("lease_expires_at", "<", sql<Date>`now()`)
        .returningAll()
        .executeTakeFirst();
      return r ? toTakenOver(r) : null;
    },

    /** Takes over the oldest abandoned asynchronous request, if any; concurrent sweepers never take the same one. */
    async takeOverAbandonedAsync(owner: string, leaseMs: number, namespace = ""): Promise<TakenOver | null> {
      const r = await db
        .updateTable("api_requests")
        .set({ lease_owner: owner, lease_expires_at: leaseUntil(leaseMs), attempt: sql<number>`attempt + 1` })
        .where(
          "request_id",
          "=",
          (eb) =>
            eb
              .selectFrom("api_requests")
              .select("request_id")
              .where("namespace", "=", namespace)
              .where("state", "=", "running")
              .where("mode", "=", "async")
              .where("lease_expires_at", "<", sql<Date>`now()`)
              .orderBy("lease_expires_at")
              .limit(1)
              .forUpdate()
              .skipLocked(),
        )
        .returningAll()
        .executeTakeFirst();
      return r ? toTakenOver(r) : null;
    },

    /** An account's requests, newest first, for the console's history. */
    async listForAccount(accountId: string, opts: { limit: number; before?: Date }): Promise<RequestSummary[]> {
      let q = db
        .selectFrom("api_requests as r")
        .leftJoin("webhook_deliveries as w", "w.request_id", "r.request_id")
        .select(["r.request_id", "r.operation", "r.mode", "r.state", "r.result_status", "r.progress_done", "r.progress_total", "r.created_at", "r.finished_at", "w.state as webhook_state"])
        .where("r.account_id", "=", accountId)
        .orderBy("r.created_at", "desc")
        .limit(opts.limit);
      if (opts.before) q = q.where("r.created_at", "<", opts.before);
      const rows = await q.execute();
      return rows.map((r) => ({
        requestId: r.request_id,
        operation: r.operation,
        mode: r.mode,
        state: r.state,
        status: r.result_status,
        progressDone: r.progress_done,
        progressTotal: r.progress_total,
        createdAt: r.created_at,
        finishedAt: r.finished_at,
        webhookState: r.webhook_state,
      }));
    },

    /**
     * Retention: finished requests older than `retentionDays`, keys older than `keyTtlHours`,
     * and images no request refers to any more. Returns how many requests went.
     */
    async purge(retentionDays: number, keyTtlHours: number): Promise<number> {
      const keys = db.deleteFrom("idempotency_keys").where("created_at", "<", sql<Date>`now() - make_interval(hours => ${keyTtlHours})`);
      await keys.execute();
      const gone = await db
        .deleteFrom("api_requests")
        .where("state", "!=", "running")
        .where("finished_at", "<", sql<Date>`now() - make_interval(days => ${retentionDays})`)
        .executeTakeFirst();
      await db
        .deleteFrom("stored_images")
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom("api_request_images").select("image_name").whereRef("api_request_images.image_name", "=", "stored_images.name"))))
        .execute();
      return Number(gone.numDeletedRows);
    },
  };
}

function rowOf(r: NewRequest, requestBody: string | null) {
  return {
    request_id: r.requestId,
    namespace: r.namespace ?? "",
    account_id: r.accountId,
    key_id: r.keyId,
    operation: r.operation,
    mode: r.mode,
    state: "running" as const,
    fingerprint: r.fingerprint,
    request_body: requestBody,
    webhook_url: r.webhookUrl ?? null,
    reservation_id: r.reservationId ?? null,
    reserved_at: r.reservationId ? sql<Date>`now()` : null,
    lease_owner: r.leaseOwner,
    lease_expires_at: leaseUntil(r.leaseMs),
    ...(r.queued ? { attempt: 0 } : {}),
    progress_total: r.progressTotal,
    accepted_body: r.acceptedBody ?? null,
    ...(r.createdAt ? { created_at: r.createdAt } : {}),
  };
}

export type RequestsRepository = ReturnType<typeof requestsRepository>;
