// The ledger service as a process: `node services/ledger/src/main.ts` (configuration in config.ts).
import { assertSchemaCurrent, createDb, schemaChangingRole, SchemaNotCurrentError } from "@adrank/db";
import { connectToNats, topology } from "@adrank/messaging";
import { configOrExit, createLogger, loadConfig, onShutdown, serveHealth } from "@adrank/runtime";
import { createMetrics } from "@adrank/telemetry";
import { LedgerEnv } from "./config.ts";
import { startLedger } from "./ledger.ts";
import { loadPriceTable } from "./model-price-file.ts";
import { modelSpendMetrics } from "./model-spend-metrics.ts";

const config = configOrExit(() => loadConfig(LedgerEnv));

const logger = createLogger("ledger", config.LOG_LEVEL);
try {
  const db = createDb({ connectionString: config.DATABASE_URL, applicationName: "adrank-ledger" });
  // The migrate step changes the schema; the ledger only checks it (the catch below says what to do).
  await assertSchemaCurrent(db);
  const roleWarning = await schemaChangingRole(db);
  if (roleWarning) logger.warn(roleWarning);
  const prices = await loadPriceTable(config.ADRANK_MODEL_PRICES_FILE);
  if ("error" in prices) {
    logger.fatal(prices.error);
    process.exit(1);
  }
  const metrics = createMetrics("ledger");
  const nc = await connectToNats({ url: config.NATS_URL, name: "ledger", credentials: config, noAsyncTraces: true });
  const ledger = await startLedger({
    nc,
    db,
    topo: topology(config.ADRANK_NAMESPACE),
    logger,
    reservationTtlMs: config.LEDGER_RESERVATION_TTL_MS,
    sweepIntervalMs: config.LEDGER_SWEEP_INTERVAL_MS,
    streamReplicas: config.LEDGER_JETSTREAM_REPLICAS,
    cacheSize: config.LEDGER_CACHE_ACCOUNTS,
    appendAttempts: config.LEDGER_APPEND_ATTEMPTS,
    accountRateLimits: { scoring: config.LEDGER_ACCOUNT_RATE_LIMIT_SCORING, pairwise: config.LEDGER_ACCOUNT_RATE_LIMIT_PAIRWISE },
    accountRequestLimits: { requests: config.LEDGER_ACCOUNT_REQUEST_LIMIT, fetches: config.LEDGER_ACCOUNT_FETCH_LIMIT },
    projection: config.LEDGER_PROJECTION,
    rpc: config.LEDGER_RPC,
    onSettled: modelSpendMetrics(metrics, prices),
  });
  const stats = () => ledger.store.stats();
  metrics.counterOnScrape("adrank_ledger_commands_total", "Commands decided by this replica.", () => stats().commands);
  metrics.counterOnScrape("adrank_ledger_appends_total", "Events appended by this replica.", () => stats().appended);
  metrics.counterOnScrape("adrank_ledger_conflicts_total", "Appends that lost an optimistic-concurrency race and were decided again.", () => stats().conflicts);
  metrics.counterOnScrape("adrank_ledger_duplicates_total", "Appends the stream de-duplicated (a retried command).", () => stats().duplicates);
  metrics.counterOnScrape("adrank_ledger_exhausted_total", "Commands given up after every append attempt lost (answered 'retry').", () => stats().exhausted);
  const health = serveHealth(config.HEALTH_PORT, config.HEALTH_HOST, {
    notReadyReason: () => (nc.isClosed() ? "NATS connection closed" : ledger.problem()),
    routes: { "/metrics": () => metrics.render() },
  });
  let stopping = false;
  onShutdown(logger, [
    { name: "ledger", run: () => ((stopping = true), ledger.stop()) },
    { name: "nats", run: () => nc.drain() },
    { name: "database", run: () => db.destroy() },
    { name: "health server", run: () => new Promise<void>((r) => (health ? health.close(() => r()) : r())) },
  ]);
  // Reconnection never gives up, so a closed connection is fatal: let the supervisor restart us.
  void nc.closed().then((err) => {
    if (stopping) return;
    logger.fatal({ err }, "NATS connection closed");
    process.exit(1);
  });
} catch (err) {
  if (err instanceof SchemaNotCurrentError) logger.fatal(err.message);
  else logger.fatal({ err }, "ledger failed to start");
  process.exit(1);
}
