// The drift watch: ranks a fixed reference batch through a running gateway's public API,
// stores the run and compares it with the last run of the same batch (docs/deploy.md, "Drift
// watch"). Daily as a Kubernetes CronJob; by hand:
//   DRIFT_API_KEY=… npm run drift [-- --min-rho 0.9 --max-mean-change 0.15 --json]
import { assertSchemaCurrent, createDb, SchemaNotCurrentError } from "@adrank/db";
import { driftRunsRepository } from "@adrank/db/repositories";
import { loadConfig } from "@adrank/runtime";
import { cleartextKeyProblem, createClient } from "@adrank/sdk";
import { DriftEnv } from "./drift-env.ts";
import { DriftError } from "./drift-error.ts";
import { driftUsage, DriftUsageError, parseDriftOptions, type DriftOptions } from "./drift-options.ts";
import { driftErrorReport } from "./drift-report.ts";
import { DRIFT_EXIT } from "./exit-codes.ts";
import { loadReferenceBatch } from "./reference-batch.ts";
import { runDrift } from "./run-drift.ts";

function stop(code: number, line: string): never {
  console.error(line);
  process.exit(code);
}

let options: DriftOptions;
try {
  options = parseDriftOptions(process.argv.slice(2));
} catch (err) {
  if (!(err instanceof DriftUsageError)) throw err;
  stop(DRIFT_EXIT.usage, `drift: ${err.message}\n${driftUsage()}`);
}
if (options.help) {
  console.log(driftUsage());
  process.exit(DRIFT_EXIT.unchanged);
}

let config: DriftEnv;
try {
  config = loadConfig(DriftEnv);
} catch (err) {
  // The message names the variable, never its value: neither the key nor the database URL is printed.
  stop(DRIFT_EXIT.usage, `drift: ${err instanceof Error ? err.message : String(err)}`);
}
const cleartext = cleartextKeyProblem(new URL(config.ADRANK_URL), config.DRIFT_ALLOW_INSECURE_HTTP);
if (cleartext) stop(DRIFT_EXIT.usage, `drift: ADRANK_URL: ${cleartext}; set DRIFT_ALLOW_INSECURE_HTTP=true for a network you trust (the gateway's in-cluster Service)`);

const client = createClient({
  apiKey: config.DRIFT_API_KEY,
  baseUrl: config.ADRANK_URL,
  allowInsecureHttp: config.DRIFT_ALLOW_INSECURE_HTTP,
  onRetry: (e) => console.error(`drift: retrying the rank request in ${Math.round(e.delayMs)} ms (retry ${e.retry}): ${e.error.message}`),
});
const db = createDb({ connectionString: config.DATABASE_URL, max: 2, applicationName: "adrank-drift" });
try {
  // Never migrates, and checks before ranking: a run that cannot be stored must not be billed.
  await assertSchemaCurrent(db);
  const batch = await loadReferenceBatch();
  const outcome = await runDrift({
    client,
    runs: driftRunsRepository(db),
    batch,
    thresholds: options.thresholds,
    json: options.json,
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
  process.exitCode = outcome.exitCode;
} catch (err) {
  const message = err instanceof DriftError || err instanceof SchemaNotCurrentError ? err.message : `failed: ${err instanceof Error ? err.message : String(err)}${err instanceof Error && err.cause ? ` (${String(err.cause)})` : ""}`;
  console.error(`drift: ${message}`);
  if (options.json) console.log(JSON.stringify(driftErrorReport(message), null, 2));
  process.exitCode = DRIFT_EXIT.error;
} finally {
  await db.destroy();
}
