import { randomUUID } from "node:crypto";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { Kysely } from "kysely";
import type { Database } from "@adrank/db";
import { proxyTrust, type Logger } from "@adrank/runtime";
import type { ClosePairRefiner } from "@adrank/rank-assembly";
import { createClosePairRefiner } from "./operations/rank/close-pair-refiner.ts";
import { openKeptEvaluations } from "./operations/rank/open-kept-evaluations.ts";
import type { GatewayConfig } from "./config.ts";
import type { ImageIntake } from "./operations/shared/prepare-image.ts";
import authPlugin from "./plugins/auth.ts";
import busPlugin, { type BusConnections } from "./plugins/bus.ts";
import dbPlugin from "./plugins/db.ts";
import errorHandlerPlugin from "./plugins/error-handler.ts";
import imageIntakePlugin from "./plugins/image-intake.ts";
import ledgerPlugin, { type GatewayLedger } from "./plugins/ledger.ts";
import metricsPlugin, { createGatewayMetrics, type GatewayMetrics } from "./plugins/metrics.ts";
import requestContextPlugin from "./plugins/request-context.ts";
import lifecyclePlugin from "./plugins/lifecycle.ts";
import docsRoutes from "./routes/docs/index.ts";
import healthRoutes from "./routes/health/index.ts";
import openApiRoutes from "./routes/api/v1/openapi/index.ts";
import audiencesRoutes from "./operations/audiences/route.ts";
import calibrationRoutes from "./operations/calibration/route.ts";
import outcomesRoutes from "./operations/outcomes/route.ts";
import { calibrationLimitsOf, outcomeLimitsOf, type OutcomeSetting } from "./operations/outcomes/outcome-settings.ts";
import pairwiseRoutes from "./operations/pairwise/route.ts";
import rankRoutes from "./operations/rank/route.ts";
import rankAudiencesRoutes from "./operations/rank-audiences/route.ts";
import { WEBHOOK_MAX_PENDING_DEFAULT } from "./webhooks/config.ts";
import requestsRoutes from "./operations/requests/route.ts";
import { IDEMPOTENCY_KEY_TTL_HOURS, KEPT_EVALUATIONS_DEFAULT_TTL_HOURS, REQUEST_RETENTION_DAYS } from "@adrank/contracts";
import { answerClientError } from "./http/client-error.ts";
import { useStrictJsonParser } from "./http/strict-json.ts";
import { abuseLimitsOf, type AbuseSetting } from "./http/abuse-limits.ts";

export type AppConfig = Pick<
  GatewayConfig,
  "RANK_TIMEOUT_MS" | "PAIRWISE_TIMEOUT_MS" | "PRESENCE_TIMEOUT_MS" | "ASSET_CONCURRENCY" | "BODY_LIMIT_BYTES" | "KEY_CACHE_TTL_MS" | "LEDGER_TIMEOUT_MS"
> &
  Partial<Pick<GatewayConfig, AbuseSetting>> &
  Partial<Pick<GatewayConfig, "REQUEST_LEASE_MS" | "ASYNC_SWEEP_MS" | "SETTLEMENT_RELAY_MS" | "MAX_BACKGROUND_REQUESTS" | "REQUEST_RETENTION_DAYS" | "WEBHOOK_MAX_PENDING_PER_ACCOUNT" | "ADRANK_KEPT_EVALUATIONS_TTL_HOURS">> &
  Partial<Pick<GatewayConfig, OutcomeSetting>>;

export interface AppDeps {
  config: AppConfig;
  logger: Logger;
  db: Kysely<Database>;
  /** The app starts its own result router unless one is given. */
  bus: BusConnections;
  ledger: GatewayLedger;
  intake: ImageIntake;
  /** Close-pair refinement (spec rule 8); by default through the refinement service. */
  refiner?: ClosePairRefiner;
  /** Prometheus instruments; main serves them on HEALTH_PORT. */
  metrics?: GatewayMetrics;
  /** Null when a webhook_url may be used, else why not (https, public addresses); main.ts checks DNS. */
  checkWebhookUrl?: (url: string) => Promise<string | null>;
  now?: () => number;
}

/**
 * The whole HTTP app in layers: fastify itself and its error handling, then the app plugins
 * (bus, db, ledger, image intake, auth, the request lifecycle), then the routes: each API
 * operation in its own folder under operations/ (its route, and for a metered one the
 * Operation the lifecycle runs), health, docs and the OpenAPI document under routes/. main.ts
 * opens the connections and hands them in; route tests build the same app and use `inject`.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const now = deps.now ?? Date.now;
  // Typed as fastify's logger so the app is a plain FastifyInstance that route plugins accept.
  const loggerInstance: FastifyBaseLogger = deps.logger;
  const abuse = abuseLimitsOf(deps.config);
  const app = Fastify({
    loggerInstance,
    bodyLimit: deps.config.BODY_LIMIT_BYTES,
    // The request id is ours: it becomes the rank's request_id and its ledger reservation id.
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // The client address (request.ip) is the X-Forwarded-For entry the outermost trusted proxy wrote.
    trustProxy: proxyTrust(abuse.trustProxyHops),
    return503OnClosing: true,
    clientErrorHandler: answerClientError,
    // Node would refuse an HTTP/1.1 request without Host itself, with an empty body; the
    // request-context plugin refuses it instead, with the spec's error body.
    http: { requireHostHeader: false },
  });
  // Only JSON bodies are accepted; fastify's text/plain parser would let a string through.
  app.removeContentTypeParser("text/plain");
  useStrictJsonParser(app, deps.config.BODY_LIMIT_BYTES, abuse.jsonShape);

  await app.register(errorHandlerPlugin, { bodyLimitBytes: deps.config.BODY_LIMIT_BYTES });
  await app.register(requestContextPlugin, { now, drainLimitBytes: deps.config.BODY_LIMIT_BYTES });
  await app.register(metricsPlugin, { metrics: deps.metrics ?? createGatewayMetrics() });

  await app.register(busPlugin, { bus: deps.bus });
  await app.register(dbPlugin, { db: deps.db });
  await app.register(ledgerPlugin, { ledger: deps.ledger });
  await app.register(imageIntakePlugin, { intake: deps.intake });
  await app.register(authPlugin, { keyCacheTtlMs: deps.config.KEY_CACHE_TTL_MS, now, failures: abuse.authFailures, unauthenticatedBodyLimitBytes: abuse.unauthenticatedBodyLimitBytes });
  await app.register(lifecyclePlugin, {
    config: {
      namespace: deps.bus.topo.namespace,
      leaseMs: deps.config.REQUEST_LEASE_MS ?? 15_000,
      keyTtlHours: IDEMPOTENCY_KEY_TTL_HOURS,
      ledgerTimeoutMs: deps.config.LEDGER_TIMEOUT_MS,
      sweepMs: deps.config.ASYNC_SWEEP_MS ?? 2_000,
      settlementRelayMs: deps.config.SETTLEMENT_RELAY_MS ?? 1_000,
      maxBackgroundRuns: deps.config.MAX_BACKGROUND_REQUESTS ?? 16,
      retentionDays: deps.config.REQUEST_RETENTION_DAYS ?? REQUEST_RETENTION_DAYS,
      maxPendingWebhooks: deps.config.WEBHOOK_MAX_PENDING_PER_ACCOUNT ?? WEBHOOK_MAX_PENDING_DEFAULT,
    },
    // Without a checker (route tests) only the contract's syntax rule applies.
    checkWebhookUrl: deps.checkWebhookUrl ?? (async () => null),
    now,
  });

  await app.register(healthRoutes);
  await app.register(docsRoutes);
  await app.register(openApiRoutes, { prefix: "/api/v1" });
  await app.register(audiencesRoutes, { prefix: "/api/v1/audiences" });
  await app.register(requestsRoutes, { prefix: "/api/v1/requests" });
  await app.register(outcomesRoutes, { prefix: "/api/v1/outcomes", limits: outcomeLimitsOf(deps.config), now });
  await app.register(calibrationRoutes, { prefix: "/api/v1/calibration", limits: calibrationLimitsOf(deps.config), now });
  const rankOptions = {
    timeoutMs: deps.config.RANK_TIMEOUT_MS,
    assetConcurrency: deps.config.ASSET_CONCURRENCY,
    refiner: deps.refiner ?? createClosePairRefiner({ nc: app.bus.nc, js: app.bus.js, topo: app.bus.topo, results: app.bus.results, log: deps.logger, presenceTimeoutMs: deps.config.PRESENCE_TIMEOUT_MS }),
    kept: openKeptEvaluations(app, { ttlHours: deps.config.ADRANK_KEPT_EVALUATIONS_TTL_HOURS ?? KEPT_EVALUATIONS_DEFAULT_TTL_HOURS, presenceTimeoutMs: deps.config.PRESENCE_TIMEOUT_MS }),
  };
  await app.register(rankRoutes, { prefix: "/api/v1/rank", ...rankOptions });
  // Several audiences take no longer than one: they run side by side, under rank's own time limit.
  await app.register(rankAudiencesRoutes, { prefix: "/api/v1/rank/audiences", ...rankOptions });
  await app.register(pairwiseRoutes, {
    prefix: "/api/v1/pairwise",
    timeoutMs: deps.config.PAIRWISE_TIMEOUT_MS,
    presenceTimeoutMs: deps.config.PRESENCE_TIMEOUT_MS,
    imageConcurrency: deps.config.ASSET_CONCURRENCY,
  });
  return app;
}
