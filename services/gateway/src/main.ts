import { readFileSync } from "node:fs";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { createDb, schemaChangingRole, schemaProblem } from "@adrank/db";
import { webhooksRepository } from "@adrank/db/repositories";
import { createImageIntake } from "@adrank/images";
import { createLedgerClient } from "@adrank/ledger-client";
import { connectToNats, ensureStream, openImageStore, topology } from "@adrank/messaging";
import { configOrExit, createLogger, DEVELOPMENT_SECRETS_KEY_WARNING, loadConfig, onShutdown, secretsKeyOf, serveHealth, webhookSecretBox } from "@adrank/runtime";
import { buildApp } from "./app.ts";
import { createGatewayMetrics } from "./plugins/metrics.ts";
import { GatewayEnv } from "./config.ts";
import { checkWebhookUrl } from "./webhooks/check-webhook-url.ts";
import { startWebhookDelivery } from "./webhooks/delivery-worker.ts";

const config = configOrExit(() => loadConfig(GatewayEnv));
const logger = createLogger("gateway", config.LOG_LEVEL);
// The console seals the webhook signing secrets under the same key; deliveries are signed with them.
const secretsKey = configOrExit(() => secretsKeyOf(config));
if (secretsKey.development) logger.warn(DEVELOPMENT_SECRETS_KEY_WARNING);
if (config.IMAGE_ALLOW_LOOPBACK) {
  logger.warn("IMAGE_ALLOW_LOOPBACK is set: image intake will fetch from loopback addresses. This is for tests only and must never be set in production.");
}
if (config.IMAGE_CA_FILE) logger.warn({ file: config.IMAGE_CA_FILE }, "IMAGE_CA_FILE is set: image intake trusts an extra CA. This is for tests only.");

const topo = topology(config.ADRANK_NAMESPACE);
const db = createDb({ connectionString: config.DATABASE_URL, applicationName: "adrank-gateway" });
// The migrate step (npm run migrate, the migrate Job or compose service) changes the schema;
// the gateway only checks it, and stops with what to do when it is not this build's.
const schemaRefusal = await schemaProblem(db);
if (schemaRefusal) {
  logger.fatal(schemaRefusal);
  await db.destroy();
  process.exit(1);
}
// The gateway faces the internet: it should hold only its own table rights, never the migrate role.
const roleWarning = await schemaChangingRole(db);
if (roleWarning) logger.warn(roleWarning);

const nc = await connectToNats({ url: config.NATS_URL, name: "gateway", credentials: config });
await ensureStream(await jetstreamManager(nc), topo.streams.jobs, config.JOBS_JETSTREAM_REPLICAS);
const images = await openImageStore(nc, topo, { replicas: config.JOBS_JETSTREAM_REPLICAS });

const metrics = createGatewayMetrics();
const app = await buildApp({
  config,
  metrics,
  logger,
  db,
  bus: { nc, js: jetstream(nc), topo, images },
  ledger: createLedgerClient(nc, topo, { timeoutMs: config.LEDGER_TIMEOUT_MS }),
  // The intake's defaults are DESIGN's image limits: 10 s, 10 MiB, 3 redirects, a pixel limit.
  intake: createImageIntake({
    allowLoopback: config.IMAGE_ALLOW_LOOPBACK,
    ...(config.IMAGE_CA_FILE ? { ca: readFileSync(config.IMAGE_CA_FILE, "utf8") } : {}),
    onWarning: (message) => logger.warn({ component: "image-intake" }, message),
  }),
  checkWebhookUrl: (url) => checkWebhookUrl(url, { allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK }),
});

const address = await app.listen({ port: config.PORT, host: config.HOST });
const internal = serveHealth(config.HEALTH_PORT, config.HEALTH_HOST, {
  notReadyReason: () => (nc.isClosed() ? "NATS connection closed" : null),
  routes: { "/metrics": () => metrics.metrics.render() },
});
logger.info({ address, namespace: topo.namespace }, "gateway listening");
// Every gateway delivers webhooks; a lease per delivery keeps two from sending one at once.
const webhooks = startWebhookDelivery({ repo: webhooksRepository(db, webhookSecretBox(secretsKey.key)), log: logger.child({ component: "webhooks" }), config });

// In-flight rank requests may run to their limit; leave them that long to finish and settle.
onShutdown(
  logger,
  [
    { name: "stop accepting and finish in-flight requests", run: () => app.close() },
    { name: "finish webhook attempts in flight", run: () => webhooks.stop() },
    { name: "drain NATS", run: () => nc.drain() },
    { name: "close the Postgres pool", run: () => db.destroy() },
    { name: "close the metrics listener", run: () => new Promise<void>((r) => (internal ? internal.close(() => r()) : r())) },
  ],
  Math.max(config.RANK_TIMEOUT_MS, config.PAIRWISE_TIMEOUT_MS) + 10_000,
);
