import { z } from "zod";
import { envFlag, envInt, secretsKeySetting } from "@adrank/runtime";
import type { WebhookSchedule } from "@adrank/request-records";

const HOUR = 3_600_000;

/** WEBHOOK_MAX_PENDING_PER_ACCOUNT's default: far above what a healthy receiver leaves waiting. */
export const WEBHOOK_MAX_PENDING_DEFAULT = 1_000;

/** Settings of webhook delivery, spread into GatewayEnv. */
export const WebhookEnv = {
  /** How often the delivery worker looks for due deliveries. */
  WEBHOOK_POLL_MS: envInt(1_000, 10, 60_000),
  /** The longest one attempt may take, from DNS to the receiver's answer (DESIGN: 10 s). */
  WEBHOOK_TIMEOUT_MS: envInt(10_000, 100, 60_000),
  /** Delay before the second attempt; it doubles with every failed attempt (DESIGN: 10 s). */
  WEBHOOK_RETRY_BASE_MS: envInt(10_000, 10, HOUR),
  /** The longest delay between two attempts (DESIGN: 1 h). */
  WEBHOOK_RETRY_MAX_DELAY_MS: envInt(HOUR, 10, 24 * HOUR),
  /** How long after a delivery is queued it is still retried before it fails for good (at least 24 h in production; tests shorten it). */
  WEBHOOK_RETRY_FOR_MS: envInt(26 * HOUR, 100, 7 * 24 * HOUR),
  /** Deliveries one gateway attempts at the same time. */
  WEBHOOK_CONCURRENCY: envInt(4, 1, 64),
  /**
   * Attempts of one account in flight at once, across all gateways: an account whose receiver
   * never answers holds at most this many slots, each for at most WEBHOOK_TIMEOUT_MS.
   */
  WEBHOOK_ACCOUNT_CONCURRENCY: envInt(2, 1, 64),
  /**
   * Deliveries one account may have waiting (pending, or still to come from its running
   * asynchronous requests). At the cap a new asynchronous request with a webhook_url is
   * refused with 429 before any work or charge.
   */
  WEBHOOK_MAX_PENDING_PER_ACCOUNT: envInt(WEBHOOK_MAX_PENDING_DEFAULT, 1, 1_000_000),
  /**
   * Opens the sealed signing secrets (the console seals them under the same key). Required in
   * production; a public development key is used otherwise.
   */
  ADRANK_SECRETS_KEY: secretsKeySetting,
  /** Test-only: lets webhooks go to 127.0.0.1/::1 (the tests' local HTTPS receivers). */
  WEBHOOK_ALLOW_LOOPBACK: envFlag,
  /** Test-only: a PEM file of an extra CA trusted for webhook receivers (the tests' receivers'). */
  WEBHOOK_CA_FILE: z.string().optional(),
};

export type WebhookConfig = z.output<z.ZodObject<typeof WebhookEnv>>;

/** The retry schedule these settings describe. */
export function webhookSchedule(config: WebhookConfig): WebhookSchedule {
  return { baseMs: config.WEBHOOK_RETRY_BASE_MS, maxDelayMs: config.WEBHOOK_RETRY_MAX_DELAY_MS, retryForMs: config.WEBHOOK_RETRY_FOR_MS };
}
