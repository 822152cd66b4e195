import { z } from "zod";
import { BaseEnv, envFlag, envInt } from "@adrank/runtime";
import { WebhookEnv } from "./webhooks/config.ts";

const MiB = 1024 * 1024;

export const GatewayEnv = BaseEnv.extend({
  ADRANK_NAMESPACE: z.string().regex(/^[A-Za-z0-9_-]*$/).default(""),
  PORT: envInt(8080, 0, 65535),
  /** Port of the internal listener with /metrics (0 serves none); never the public port. */
  HEALTH_PORT: envInt(0, 0, 65535),
  HEALTH_HOST: z.string().default("0.0.0.0"),
  HOST: z.string().min(1).default("0.0.0.0"),
  /** The longest a rank request runs (spec rule 10: at most 120 s); tests shorten it. */
  RANK_TIMEOUT_MS: envInt(120_000, 1_000, 120_000),
  /** The longest a pairwise request runs (DESIGN: 120 s). */
  PAIRWISE_TIMEOUT_MS: envInt(120_000, 1_000, 120_000),
  /** How long the gateway waits for a panel-voter (or refinement) worker to say it runs. */
  PRESENCE_TIMEOUT_MS: envInt(1_000, 50, 10_000),
  /** Assets of one request in flight at once (spec rule 1: up to 4). */
  ASSET_CONCURRENCY: envInt(4, 1, 4),
  /** Bodies above this are refused with 413 (DESIGN: 25 MiB). */
  BODY_LIMIT_BYTES: envInt(25 * MiB, 1024, 25 * MiB),
  /** How long a key look-up (found, missing or revoked) is trusted; at most 5 s so a revoked key stops within 5 s. */
  KEY_CACHE_TTL_MS: envInt(5_000, 0, 5_000),
  /** Test-only: lets image intake fetch from 127.0.0.1/::1 (the local HTTPS fixture server). */
  IMAGE_ALLOW_LOOPBACK: envFlag,
  /** Test-only: a PEM file of an extra CA trusted by image intake (the fixture server's). */
  IMAGE_CA_FILE: z.string().optional(),
  /** Time-out of one ledger round trip; an unanswered reservation refuses the request with 500. */
  LEDGER_TIMEOUT_MS: envInt(3_000, 100, 30_000),
  /** Replicas (1–5) of the JOBS stream and the image bucket when this service creates them (3 in production). */
  JOBS_JETSTREAM_REPLICAS: envInt(1, 1, 5),
  /** How long a running idempotent or asynchronous request's lease lasts; renewed every third of it. A dead gateway's request is taken over after it. */
  REQUEST_LEASE_MS: envInt(15_000, 1_000, 120_000),
  /** How often each gateway looks for asynchronous requests whose gateway died. */
  ASYNC_SWEEP_MS: envInt(2_000, 100, 60_000),
  /** Asynchronous requests one gateway runs at once. */
  MAX_BACKGROUND_REQUESTS: envInt(16, 1, 256),
  /** Finished requests are fetchable this long (the API promises at least 30 days). */
  REQUEST_RETENTION_DAYS: envInt(30, 30, 3_650),
  ...WebhookEnv,
});
export type GatewayConfig = z.infer<typeof GatewayEnv>;
