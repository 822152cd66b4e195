import { z } from "zod";
import { BaseEnv, envFlag, envInt, trustProxyHops } from "@adrank/runtime";
import { CALIBRATION_OUTCOMES_READ_MAX, KEPT_EVALUATIONS_DEFAULT_TTL_HOURS, OUTCOME_METRICS_PER_ACCOUNT, OUTCOMES_PER_ACCOUNT } from "@adrank/contracts";
import { WebhookEnv } from "./webhooks/config.ts";
import { ABUSE_LIMIT_DEFAULTS } from "./http/abuse-limits.ts";

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
  /** Keys shaped like ours but not accepted, per client address and window, before the address gets 429 without a look-up; per gateway process. */
  AUTH_FAILURE_LIMIT_PER_ADDRESS: envInt(ABUSE_LIMIT_DEFAULTS.authFailureLimit, 1, 100_000),
  AUTH_FAILURE_WINDOW_SECONDS: envInt(ABUSE_LIMIT_DEFAULTS.authFailureWindowSeconds, 1, 3_600),
  /** Client addresses the failure count keeps at once (about 150 bytes each); past it they share one count. */
  AUTH_FAILURE_TRACKED_ADDRESSES: envInt(ABUSE_LIMIT_DEFAULTS.authFailureTrackedAddresses, 100, 10_000_000),
  /** Proxies in front of the gateway that append to X-Forwarded-For (1 behind the ingress); the failure limit counts per client address. */
  GATEWAY_TRUST_PROXY: trustProxyHops("gateway"),
  /** A request without a key (an unauthenticated route) may carry at most this body; larger ones get 413 before being read. */
  UNAUTHENTICATED_BODY_LIMIT_BYTES: envInt(ABUSE_LIMIT_DEFAULTS.unauthenticatedBodyLimitBytes, 0, MiB),
  /** JSON bodies nested deeper than this get 400 before they are parsed (the API's own bodies nest at most 4). */
  JSON_MAX_DEPTH: envInt(ABUSE_LIMIT_DEFAULTS.jsonMaxDepth, 8, 1_000),
  /** JSON bodies with more array elements and object members than this get 400 before they are parsed. */
  JSON_MAX_ITEMS: envInt(ABUSE_LIMIT_DEFAULTS.jsonMaxItems, 1_000, 10_000_000),
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
  /** How often each gateway applies the settlements the ledger did not confirm while their request waited (the outbox). */
  SETTLEMENT_RELAY_MS: envInt(1_000, 100, 60_000),
  /** Asynchronous requests one gateway runs at once; more are accepted and wait queued for a free slot (here or on another gateway). */
  MAX_BACKGROUND_REQUESTS: envInt(16, 1, 256),
  /** Distinct outcome metric names one account may record (a new one beyond is refused with 422). */
  OUTCOME_METRICS_MAX: envInt(OUTCOME_METRICS_PER_ACCOUNT, 1, 10_000),
  /** Outcome rows one account may store (a batch adding rows beyond is refused with 422). */
  OUTCOME_ROWS_MAX: envInt(OUTCOMES_PER_ACCOUNT, 1, 10_000_000),
  /** POST /api/v1/outcomes calls per account per minute on one gateway (429 beyond). */
  OUTCOMES_CALLS_PER_MINUTE: envInt(60, 1, 100_000),
  /** GET /api/v1/calibration calls per account per minute on one gateway (429 beyond). */
  CALIBRATION_CALLS_PER_MINUTE: envInt(30, 1, 100_000),
  /** Outcomes one calibration report reads at most, the most recently recorded (`truncated` says so). */
  CALIBRATION_MAX_ROWS: envInt(CALIBRATION_OUTCOMES_READ_MAX, 10, 1_000_000),
  /** Time limit of one calibration report: its query and its bootstrap, waiting included (503 beyond). */
  CALIBRATION_TIMEOUT_MS: envInt(10_000, 100, 120_000),
  /** Finished requests are fetchable this long (the API promises at least 30 days). */
  REQUEST_RETENTION_DAYS: envInt(30, 30, 3_650),
  /** How long a successful evaluation is kept for reuse by requests with reuse_evaluations (7 days); expired ones are swept. */
  ADRANK_KEPT_EVALUATIONS_TTL_HOURS: envInt(KEPT_EVALUATIONS_DEFAULT_TTL_HOURS, 1, 8_760),
  ...WebhookEnv,
  /** `production` makes ADRANK_SECRETS_KEY required (the Dockerfile sets it). */
  NODE_ENV: z.string().default("development"),
});
export type GatewayConfig = z.infer<typeof GatewayEnv>;
