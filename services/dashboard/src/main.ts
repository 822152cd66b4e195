import { randomBytes } from "node:crypto";
import { createDb, schemaChangingRole, schemaProblem } from "@adrank/db";
import { consoleLimitsRepository, healthRepository } from "@adrank/db/repositories";
import { createLedgerClient } from "@adrank/ledger-client";
import { connectToNats, topology } from "@adrank/messaging";
import { configOrExit, createLogger, createSecretBox, DEVELOPMENT_SECRETS_KEY_WARNING, loadConfig, onShutdown, secretsKeyOf, webhookSecretBox } from "@adrank/runtime";
import { buildDashboard } from "./app.ts";
import { DIST, ensureWebBuilt } from "./build-web.ts";
import { DashboardEnv } from "./config.ts";
import { createDeviceTokens } from "./device-token.ts";
import { createLimitCounters } from "./limit-counters.ts";
import { createSignInLimiter } from "./sign-in-limiter.ts";
import { createSignUpLimiter } from "./sign-up-limiter.ts";

const config = configOrExit(() => loadConfig(DashboardEnv));
const logger = createLogger("dashboard", config.LOG_LEVEL);
// The gateway reads the same key: it signs deliveries with the secrets the console seals.
const secretsKey = configOrExit(() => secretsKeyOf(config));
if (secretsKey.development) logger.warn(DEVELOPMENT_SECRETS_KEY_WARNING);
let secret = config.DASHBOARD_SESSION_SECRET;
if (!secret) {
  if (config.NODE_ENV === "production") {
    logger.fatal("DASHBOARD_SESSION_SECRET is required in production (32+ characters)");
    process.exit(1);
  }
  secret = randomBytes(32).toString("hex");
  logger.warn("DASHBOARD_SESSION_SECRET is not set: using a random one; playground keys will be re-issued after a restart");
}

const started = performance.now();
if (await ensureWebBuilt()) logger.info({ ms: Math.round(performance.now() - started) }, "console front end built");

const db = createDb({ connectionString: config.DATABASE_URL, applicationName: "adrank-dashboard" });
// The migrate step changes the schema; the console only checks it, and stops with what to do.
const schemaRefusal = await schemaProblem(db);
if (schemaRefusal) {
  logger.fatal(schemaRefusal);
  await db.destroy();
  process.exit(1);
}
const roleWarning = await schemaChangingRole(db);
if (roleWarning) logger.warn(roleWarning);
const nc = await connectToNats({ url: config.NATS_URL, name: "dashboard", credentials: config });
const ledger = createLedgerClient(nc, topology(config.ADRANK_NAMESPACE), { timeoutMs: 5_000 });
// The limits' counters live in Postgres: every replica counts against the same ones.
const counters = createLimitCounters(consoleLimitsRepository(db));
const health = healthRepository(db);

const app = await buildDashboard({
  db,
  ledger,
  ledgerStream: topology(config.ADRANK_NAMESPACE).streams.ledger.name,
  logger,
  box: createSecretBox(secret, "playground-keys"),
  webhookSecretBox: webhookSecretBox(secretsKey.key),
  signInLimiter: createSignInLimiter(
    counters,
    { maxFailures: config.DASHBOARD_SIGNIN_MAX_FAILURES, maxFailuresPerEmail: config.DASHBOARD_SIGNIN_MAX_FAILURES_PER_EMAIL, windowMs: config.DASHBOARD_SIGNIN_WINDOW_MINUTES * 60_000 },
    createDeviceTokens(secret, { maxAgeMs: config.DASHBOARD_DEVICE_COOKIE_DAYS * 86_400_000 }),
  ),
  signUpLimiter: createSignUpLimiter(counters, {
    perAddress: config.DASHBOARD_SIGNUP_LIMIT_PER_ADDRESS,
    global: config.DASHBOARD_SIGNUP_LIMIT_GLOBAL,
    windowMs: config.DASHBOARD_SIGNUP_WINDOW_MINUTES * 60_000,
  }),
  gatewayUrl: config.GATEWAY_URL,
  apiDocsUrl: config.DASHBOARD_API_DOCS_URL,
  signupCredits: config.DASHBOARD_SIGNUP_CREDITS,
  maxActiveKeysPerAccount: config.MAX_ACTIVE_KEYS_PER_ACCOUNT,
  sessionTtlMs: config.DASHBOARD_SESSION_TTL_HOURS * 3_600_000,
  secureCookies: config.DASHBOARD_SECURE_COOKIES,
  trustProxyHops: config.DASHBOARD_TRUST_PROXY,
  bodyLimitBytes: config.DASHBOARD_BODY_LIMIT_BYTES,
  playgroundBodyLimitBytes: config.DASHBOARD_PLAYGROUND_BODY_LIMIT_BYTES,
  unauthenticatedLimits: { perAddress: config.DASHBOARD_UNAUTHENTICATED_LIMIT_PER_ADDRESS, windowMs: config.DASHBOARD_UNAUTHENTICATED_WINDOW_SECONDS * 1000 },
  webRoot: DIST,
  async isReady() {
    if (nc.isClosed()) return "NATS connection closed";
    try {
      await health.ping();
      return null;
    } catch {
      return "PostgreSQL unreachable";
    }
  },
});
const address = await app.listen({ port: config.DASHBOARD_PORT, host: config.DASHBOARD_HOST });
logger.info({ address }, "console listening");

onShutdown(logger, [
  { name: "stop accepting requests", run: () => app.close() },
  { name: "drain NATS", run: () => nc.drain() },
  { name: "close the Postgres pool", run: () => db.destroy() },
]);
