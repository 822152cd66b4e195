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

/**
 * Seals and opens the signing secrets at rest: `webhookSecretBox(ADRANK_SECRETS_KEY)` of
 * @adrank/runtime. `context` is the account id, authenticated with the sealed value.
 */
export interface SecretSealer {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string | null;
}

/** A stored secret from before sealing (migration 2026_11_28_20); sealed ones start `v1.`. */
const isPlain = (stored: string) => stored.startsWith("whsec_");

/** How a claim shares the delivery slots between accounts. */
export interface ClaimOptions {
  /** How long the claim holds the delivery; another claim may take it after. */
  leaseMs: number;
  /** Attempts of one account in flight at once, across every gateway. */
  perAccount: number;
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
  /**
   * The current secret first; the rotated-out one while it is still valid. Empty when the
   * stored secret does not open: it was sealed under another ADRANK_SECRETS_KEY.
   */
  secrets: string[];
}

/**
 * Webhook signing secrets (one per account, rotatable, sealed at rest by `sealer`) and
 * deliveries with their attempts. The gateway's delivery worker claims due deliveries with a
 * short lease (FOR UPDATE SKIP LOCKED), so any number of gateways deliver each one once at a
 * time, and takes the accounts in turn so that one account's backlog never holds another's
 * deliveries back. Without a sealer the secrets cannot be made or read (the gateway's request
 * path only asks whether one exists).
 */
export function webhooksRepository(db: Kysely<Database>, sealer?: SecretSealer) {
  const box = (): SecretSealer => {
    if (!sealer) throw new Error("this webhooks repository was made without a secret box: pass webhookSecretBox(ADRANK_SECRETS_KEY) to make, rotate or read signing secrets");
    return sealer;
  };

  /**
   * Seals the plain values of one account's row. Compare-and-set: a rotation that happened
   * meanwhile keeps its own (sealed) values. True when something was sealed.
   */
  async function sealPlain(accountId: string, secret: string, previous: string | null): Promise<boolean> {
    const sealedSecret = isPlain(secret) ? box().seal(secret, accountId) : null;
    const sealedPrevious = previous !== null && isPlain(previous) ? box().seal(previous, accountId) : null;
    if (sealedSecret === null && sealedPrevious === null) return false;
    const r = await db
      .updateTable("webhook_secrets")
      .set({
        ...(sealedSecret === null ? {} : { secret: sql<string>`case when secret = ${secret} then ${sealedSecret} else secret end` }),
        ...(sealedPrevious === null ? {} : { previous_secret: sql<string>`case when previous_secret = ${previous} then ${sealedPrevious} else previous_secret end` }),
      })
      .where("account_id", "=", accountId)
      .executeTakeFirst();
    return r.numUpdatedRows > 0n;
  }

  /** A stored value in the clear: a plain one as it is, a sealed one opened; null when it does not open. */
  const reveal = (stored: string, accountId: string): string | null => (isPlain(stored) ? stored : box().open(stored, accountId));

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
      const sealed = box().seal(secret, accountId);
      await db
        .insertInto("webhook_secrets")
        .values({ account_id: accountId, secret: sealed })
        .onConflict((oc) =>
          oc.column("account_id").doUpdateSet({
            secret: sealed,
            previous_secret: sql<string>`webhook_secrets.secret`,
            previous_valid_until: sql<Date>`now() + make_interval(hours => ${PREVIOUS_SECRET_GRACE_HOURS})`,
            rotated_at: sql<Date>`now()`,
          }),
        )
        .execute();
      return secret;
    },

    /**
     * Seals every plain secret left from before migration 2026_11_28_20 (a gateway does this
     * at start). Returns how many rows it sealed.
     */
    async sealPlainSecrets(): Promise<number> {
      let sealed = 0;
      for (;;) {
        const rows = await db
          .selectFrom("webhook_secrets")
          .select(["account_id", "secret", "previous_secret"])
          .where((w) => w.or([w("secret", "like", "whsec%"), w("previous_secret", "like", "whsec%")]))
          .limit(100)
          .execute();
        let progress = 0;
        for (const r of rows) if (await sealPlain(r.account_id, r.secret, r.previous_secret)) progress++;
        sealed += progress;
        // A batch that sealed nothing was all rotated meanwhile (sealed by the rotation).
        if (rows.length < 100 || progress === 0) return sealed;
      }
    },

    /**
     * Claims one due delivery for one attempt (a lease of `leaseMs`), or null. Accounts take
     * turns: the due delivery claimed is the oldest of the account served longest ago (never
     * served first), among accounts with fewer than `perAccount` attempts in flight. One
     * statement, its row taken FOR UPDATE SKIP LOCKED, so gateways claiming at once take
     * different deliveries (two claiming at the same instant may each count the same attempts
     * in flight, so an account can pass `perAccount` by one per such gateway). Its cost grows
     * with the accounts that have pending deliveries (index probes, none with their number of
     * deliveries). A worker that dies mid-attempt leaves the lease to run out; the delivery is
     * then due again.
     */
    async claimDue(opts: ClaimOptions): Promise<ClaimedDelivery | null> {
      const { rows } = await sql<WebhookDeliveryRow>`
        with recursive accounts (account_id) as (
          -- Each account with pending deliveries once (a skip scan of the pending index).
          (select account_id from webhook_deliveries where state = 'pending' order by account_id limit 1)
          union all
          select (select d.account_id from webhook_deliveries d where d.state = 'pending' and d.account_id > a.account_id order by d.account_id limit 1)
          from accounts a
          where a.account_id is not null
        ),
        candidates as (
          select due.id, due.next_attempt_at, turn.served_at
          from accounts a
          cross join lateral (
            select d.id, d.next_attempt_at from webhook_deliveries d
            where d.account_id = a.account_id and d.state = 'pending' and d.next_attempt_at <= now()
              and (d.lease_expires_at is null or d.lease_expires_at < now())
            order by d.next_attempt_at
            limit 1
          ) due
          left join webhook_account_turns turn on turn.account_id = a.account_id
          where (select count(*) from webhook_deliveries f where f.account_id = a.account_id and f.state = 'pending' and f.lease_expires_at >= now()) < ${opts.perAccount}
        ),
        picked as (
          select d.id, d.account_id from webhook_deliveries d
          join candidates c on c.id = d.id
          -- Checked again on the locked row: another gateway may have just claimed it.
          where d.state = 'pending' and d.next_attempt_at <= now() and (d.lease_expires_at is null or d.lease_expires_at < now())
          order by c.served_at asc nulls first, c.next_attempt_at
          limit 1
          for update of d skip locked
        ),
        claimed as (
          update webhook_deliveries w set lease_expires_at = now() + make_interval(secs => ${opts.leaseMs / 1000})
          from picked where w.id = picked.id
          returning w.*
        ),
        served as (
          insert into webhook_account_turns (account_id, served_at) select account_id, now() from claimed
          on conflict (account_id) do update set served_at = excluded.served_at
        )
        select * from claimed`.execute(db);
      const claimed = rows[0];
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
        secrets: await signingSecrets(claimed.account_id, secret.secret, secret.previous_secret, secret.previous_valid),
      };
    },

    /**
     * Deliveries of the account still to be made, counting up to `upTo`: pending ones, and the
     * ones its running asynchronous requests with a webhook_url will queue.
     */
    async pendingDeliveries(accountId: string, upTo: number): Promise<number> {
      const r = await sql<{ pending: string; running: string }>`
        select
          (select count(*) from (select 1 from webhook_deliveries where account_id = ${accountId} and state = 'pending' limit ${upTo}) p) as pending,
          (select count(*) from (select 1 from api_requests where account_id = ${accountId} and state = 'running' and webhook_url is not null limit ${upTo}) r) as running`.execute(db);
      const row = r.rows[0]!;
      return Math.min(upTo, Number(row.pending) + Number(row.running));
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

  /** The secrets to sign with, in the clear; a plain stored value is sealed on the way. */
  async function signingSecrets(accountId: string, current: string, previous: string | null, previousValid: boolean): Promise<string[]> {
    await sealPlain(accountId, current, previous);
    const secret = reveal(current, accountId);
    if (secret === null) return [];
    const old = previous !== null && previousValid ? reveal(previous, accountId) : null;
    return old === null ? [secret] : [secret, old];
  }
}
export type WebhooksRepository = ReturnType<typeof webhooksRepository>;
