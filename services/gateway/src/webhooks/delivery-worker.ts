import { readFileSync } from "node:fs";
import type { ClaimedDelivery, WebhooksRepository } from "@adrank/db/repositories";
import type { HostResolver } from "@adrank/images";
import { nextAttemptAt } from "@adrank/request-records";
import { webhookSchedule, type WebhookConfig } from "./config.ts";
import { deliverWebhook, type DeliveryOutcome, type WebhookEvent } from "./deliver.ts";

/** What the worker logs through (a pino logger fits). Never given a secret or a body. */
export interface DeliveryLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface WebhookDeliveryDeps {
  repo: Pick<WebhooksRepository, "claimDue" | "recordAttempt" | "sealPlainSecrets">;
  log: DeliveryLog;
  config: WebhookConfig;
  /** DNS; the system resolver unless a test injects one. */
  lookup?: HostResolver;
  /** Unix ms. */
  now?: () => number;
  /** In [0, 1): the retry jitter. */
  random?: () => number;
}

export interface WebhookDelivery {
  /** Stops claiming, and resolves once the attempts in flight are recorded. */
  stop(): Promise<void>;
}

/**
 * The claim outlives the attempt's time-out by this much, so recording the attempt finishes
 * before another gateway may claim the delivery again.
 */
const LEASE_MARGIN_MS = 15_000;

/** What the console shows for an attempt that could not be signed; the operators' log says why. */
const UNSIGNABLE = "not sent: the signing secret could not be read on our side; it is retried";

/** A failed asynchronous request's stored body is its RequestStatus; anything else is a result. */
function eventOf(body: string): WebhookEvent {
  try {
    const value: unknown = JSON.parse(body);
    if (typeof value === "object" && value !== null && "object" in value && "status" in value && value.object === "request" && value.status === "failed") {
      return "request.failed";
    }
  } catch {
    // Not JSON: not a RequestStatus either.
  }
  return "request.succeeded";
}

/** Logged instead of the URL, whose path or query may carry the receiver's own token. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "(unparseable URL)";
  }
}

/**
 * Delivers webhooks: every WEBHOOK_POLL_MS it claims due deliveries (each under a lease, so
 * gateways sharing the database never attempt one twice at once), up to WEBHOOK_CONCURRENCY at a
 * time, and records each attempt with when the next one runs (the retry schedule) or that the
 * delivery is over. Accounts take turns (least recently served first) and one account has at
 * most WEBHOOK_ACCOUNT_CONCURRENCY attempts in flight, so a backlog to a receiver that never
 * answers delays only its own account. At start it seals signing secrets still stored in
 * plain text. A database error is logged and the loop goes on.
 *
 * @example
 * const webhooks = startWebhookDelivery({ repo: webhooksRepository(db, webhookSecretBox(key)), log: logger, config });
 * await webhooks.stop();
 */
export function startWebhookDelivery(deps: WebhookDeliveryDeps): WebhookDelivery {
  const { repo, log, config } = deps;
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const schedule = webhookSchedule(config);
  const leaseMs = config.WEBHOOK_TIMEOUT_MS + LEASE_MARGIN_MS;
  const ca = config.WEBHOOK_CA_FILE ? readFileSync(config.WEBHOOK_CA_FILE, "utf8") : undefined;
  if (config.WEBHOOK_ALLOW_LOOPBACK) {
    log.warn({}, "WEBHOOK_ALLOW_LOOPBACK is set: webhooks may go to loopback addresses. This is for tests only and must never be set in production.");
  }
  if (ca !== undefined) log.warn({ file: config.WEBHOOK_CA_FILE }, "WEBHOOK_CA_FILE is set: webhook delivery trusts an extra CA. This is for tests only.");

  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let wake: (() => void) | null = null;

  async function attempt(d: ClaimedDelivery): Promise<void> {
    const number = d.attempts + 1;
    const attemptedAt = new Date(now());
    let outcome: DeliveryOutcome;
    if (d.secrets.length === 0) {
      log.error({ deliveryId: d.id, accountId: d.accountId }, "a webhook signing secret does not open: ADRANK_SECRETS_KEY must be the same for the gateway and the console; the delivery is retried");
      outcome = { delivered: false, status: null, error: UNSIGNABLE, durationMs: 0 };
    } else {
      outcome = await deliverWebhook(
        { url: d.url, body: d.body, secrets: d.secrets, event: eventOf(d.body), requestId: d.requestId, deliveryId: d.id, attempt: number },
        { timeoutMs: config.WEBHOOK_TIMEOUT_MS, allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK, lookup: deps.lookup, ca, now },
      );
    }
    const next = outcome.delivered ? null : nextAttemptAt(d.createdAt.getTime(), now(), number, schedule, random());
    const fields = { deliveryId: d.id, requestId: d.requestId, host: hostOf(d.url), attempt: number, status: outcome.status, durationMs: outcome.durationMs };
    try {
      await repo.recordAttempt(d.id, { ...outcome, attempt: number, attemptedAt, nextAttemptAt: next === null ? null : new Date(next) });
    } catch (err) {
      log.error({ ...fields, err }, "a webhook attempt could not be recorded; the delivery is attempted again when its lease runs out");
      return;
    }
    if (outcome.delivered) log.info(fields, "webhook delivered");
    else if (next === null) log.warn({ ...fields, error: outcome.error }, "webhook delivery failed for good: its retry period is over");
    else log.info({ ...fields, error: outcome.error, nextAttemptAt: new Date(next).toISOString() }, "webhook attempt failed; it is retried later");
  }

  async function fill(): Promise<void> {
    while (!stopped && inFlight.size < config.WEBHOOK_CONCURRENCY) {
      const claimed = await repo.claimDue({ leaseMs, perAccount: config.WEBHOOK_ACCOUNT_CONCURRENCY });
      if (!claimed) return;
      const running: Promise<void> = attempt(claimed).finally(() => {
        inFlight.delete(running);
        // A free slot may take the next due delivery now rather than at the next poll.
        wake?.();
      });
      inFlight.add(running);
    }
  }

  const loop = (async () => {
    try {
      const sealed = await repo.sealPlainSecrets();
      if (sealed > 0) log.info({ sealed }, "sealed webhook signing secrets stored in plain text");
    } catch (err) {
      // Signing still works: a plain secret is sealed when a delivery reads it.
      log.error({ err }, "sealing the plain webhook signing secrets failed; each is sealed when a delivery uses it");
    }
    while (!stopped) {
      try {
        await fill();
      } catch (err) {
        log.error({ err }, "due webhook deliveries could not be claimed; trying again at the next poll");
      }
      if (stopped) break;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          wake = null;
          resolve();
        };
        const timer = setTimeout(done, config.WEBHOOK_POLL_MS);
        wake = done;
      });
    }
  })();

  return {
    async stop() {
      stopped = true;
      wake?.();
      await loop;
      await Promise.all(inFlight);
    },
  };
}
