import { randomBytes } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { Database } from "../tables/index.ts";
import type { WebhookDeliveryRow } from "../tables/requests.ts";
import { loadWithImages } from "./stored-images.ts";

/** How long a rotated-out secret keeps signing beside the new one, so receivers can switch over. */
export const PREVIOUS_SECRET_GRACE_HOURS = 24;

const newSecret = () => `whsec_${randomBytes(32).toString("base64url")}`;
export const newDeliveryId = () => `whd_${randomBytes(10).toString("hex")}`;

export interface DeliveryAttempt {
  attempt: number;
  attemptedAt: Date;
  status: number | null;
  error: string | null;
  durationMs: number;
}

export interface DeliverySummary {
  id: string;
  requestId: string;
  url: string;
  state: "pending" | "delivered" | "failed";
  attempts: number;
  nextAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
  history: DeliveryAttempt[];
}

/** A due delivery, claimed for one attempt: what to send, where, signed with which secrets. */
export interface ClaimedDelivery {
  id: string;
  requestId: string;
  accountId: string;
  url: string;
  /** Attempts made before this one. */
  attempts: number;
  createdAt: Date;
  /** The finished request's response: status and exact body. */
  resultStatus: number;
  body: string;
  /** The current secret first; the rotated-out one while it is still valid. */
  secrets: string[];
}

/**
 * Webhook signing secrets (one per account, rotatable) and deliveries with their attempts.
 * The gateway's delivery worker claims due deliveries with a short lease (FOR UPDATE SKIP
 * LOCKED), so any number of gateways deliver each one once at a time.
 */
export function webhooksRepository(db: Kysely<Database>) {
  return {
    /** Whether the account has a secret (webhook_url needs one). */
    async hasSecret(accountId: string): Promise<boolean> {
      const r = await db.selectFrom("webhook_secrets").select("account_id").where("account_id", "=", accountId).executeTakeFirst();
      return r !== undefined;
    },

    /** When the secret was made and last rotated; never the secret itself. */
    async secretInfo(accountId: string): Promise<{ createdAt: Date; rotatedAt: Date | null; previousValidUntil: Date | null } | null> {
      const r = await db.selectFrom("webhook_secrets").select(["created_at", "rotated_at", "previous_valid_until"]).where("account_id", "=", accountId).executeTakeFirst();
      return r ? { createdAt: r.created_at, rotatedAt: r.rotated_at, previousValidUntil: r.previous_valid_until } : null;
    },

    /**
     * Creates the account's secret, or rotates it: the old one keeps signing beside the new one
     * for PREVIOUS_SECRET_GRACE_HOURS. Returns the new secret: the only time it is shown.
     */
    async rotateSecret(accountId: string): Promise<string> {
      const secret = newSecret();
      await db
        .insertInto("webhook_secrets")
        .values({ account_id: accountId, secret })
        .onConflict((oc) =>
          oc.column("account_id").doUpdateSet({
            secret,
            previous_secret: sql<string>`webhook_secrets.secret`,
            previous_valid_until: sql<Date>`now() + make_interval(hours => ${PREVIOUS_SECRET_GRACE_HOURS})`,
            rotated_at: sql<Date>`now()`,
          }),
        )
        .execute();
      return secret;
    },

    /**
     * Claims the oldest due pending delivery for one attempt (lease `leaseMs`), or null. A
     * worker that dies mid-attempt leaves the lease to run out; the delivery is then due again.
     */
    async claimDue(leaseMs: number): Promise<ClaimedDelivery | null> {
      const claimed = await db
        .updateTable("webhook_deliveries")
        .set({ lease_expires_at: sql<Date>`now() + make_interval(secs => ${leaseMs / 1000})` })
        .where(
          "id",
          "=",
          (eb) =>
            eb
              .selectFrom("webhook_deliveries")
              .select("id")
              .where("state", "=", "pending")
              .where("next_attempt_at", "<=", sql<Date>`now()`)
              .where((w) => w.or([w("lease_expires_at", "is", null), w("lease_expires_at", "<", sql<Date>`now()`)]))
              .orderBy("next_attempt_at")
              .limit(1)
              .forUpdate()
              .skipLocked(),
        )
        .returningAll()
        .executeTakeFirst();
      if (!claimed) return null;
      const [request, secret] = await Promise.all([
        db.selectFrom("api_requests").select(["result_status", "result_body"]).where("request_id", "=", claimed.request_id).executeTakeFirst(),
        db
          .selectFrom("webhook_secrets")
          .select(["secret", "previous_secret", sql<boolean>`previous_valid_until > now()`.as("previous_valid")])
          .where("account_id", "=", claimed.account_id)
          .executeTakeFirst(),
      ]);
      if (!request || request.result_status === null || request.result_body === null || !secret) {
        // Nothing to send or nothing to sign with: the delivery cannot ever succeed.
        await db
          .updateTable("webhook_deliveries")
          .set({ state: "failed", last_error: !secret ? "the account has no webhook secret" : "the request has no stored result", lease_expires_at: null })
          .where("id", "=", claimed.id)
          .execute();
        return null;
      }
      return {
        id: claimed.id,
        requestId: claimed.request_id,
        accountId: claimed.account_id,
        url: claimed.url,
        attempts: claimed.attempts,
        createdAt: claimed.created_at,
        resultStatus: request.result_status,
        body: await loadWithImages(db, request.result_body),
        secrets: secret.previous_secret && secret.previous_valid ? [secret.secret, secret.previous_secret] : [secret.secret],
      };
    },

    /**
     * Records one attempt and what follows: delivered, due again at `nextAttemptAt`, or failed
     * for good when that is null.
     */
    async recordAttempt(
      deliveryId: string,
      a: { attempt: number; attemptedAt: Date; status: number | null; error: string | null; durationMs: number; delivered: boolean; nextAttemptAt: Date | null },
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto("webhook_attempts")
          .values({ delivery_id: deliveryId, attempt: a.attempt, attempted_at: a.attemptedAt, status: a.status, error: a.error, duration_ms: a.durationMs })
          .onConflict((oc) => oc.columns(["delivery_id", "attempt"]).doNothing())
          .execute();
        await trx
          .updateTable("webhook_deliveries")
          .set({
            attempts: a.attempt,
            last_status: a.status,
            last_error: a.error,
            lease_expires_at: null,
            ...(a.delivered
              ? { state: "delivered" as const, delivered_at: a.attemptedAt }
              : a.nextAttemptAt === null
                ? { state: "failed" as const }
                : { next_attempt_at: a.nextAttemptAt }),
          })
          .where("id", "=", deliveryId)
          .execute();
      });
    },

    /** The account's deliveries, newest first, each with its attempts (for the console). */
    async listForAccount(accountId: string, opts: { limit: number }): Promise<DeliverySummary[]> {
      const rows: WebhookDeliveryRow[] = await db.selectFrom("webhook_deliveries").selectAll().where("account_id", "=", accountId).orderBy("created_at", "desc").limit(opts.limit).execute();
      if (rows.length === 0) return [];
      const attempts = await db
        .selectFrom("webhook_attempts")
        .selectAll()
        .where("delivery_id", "in", rows.map((r) => r.id))
        .orderBy("attempt")
        .execute();
      return rows.map((r) => ({
        id: r.id,
        requestId: r.request_id,
        url: r.url,
        state: r.state,
        attempts: r.attempts,
        nextAttemptAt: r.state === "pending" ? r.next_attempt_at : null,
        lastStatus: r.last_status,
        lastError: r.last_error,
        createdAt: r.created_at,
        deliveredAt: r.delivered_at,
        history: attempts
          .filter((a) => a.delivery_id === r.id)
          .map((a) => ({ attempt: a.attempt, attemptedAt: a.attempted_at, status: a.status, error: a.error, durationMs: a.duration_ms })),
      }));
    },
  };
}
export type WebhooksRepository = ReturnType<typeof webhooksRepository>;
