// Compares the Postgres projection with the LEDGER stream and prints every difference:
//   node services/ledger/src/admin/reconcile-cli.ts [--account <id>] [--json]
// Exit code 0: consistent; 1: differences found; 2: usage or connection error.
import { parseArgs } from "node:util";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { createDb } from "@adrank/db";
import { connectToNats, topology } from "@adrank/messaging";
import { reconcile } from "../reconcile.ts";

async function main(): Promise<number> {
  let values: { account?: string; json?: boolean };
  try {
    ({ values } = parseArgs({ options: { account: { type: "string" }, json: { type: "boolean" } }, strict: true }));
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\nusage: reconcile-cli [--account <id>] [--json]`);
    return 2;
  }
  const url = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
  const db = createDb({ connectionString: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test", max: 2, applicationName: "adrank-reconcile" });
  let nc;
  try {
    nc = await connectToNats({ url, name: "ledger-reconcile" });
  } catch (err) {
    console.error(`cannot connect to NATS at ${url}: ${err instanceof Error ? err.message : String(err)}`);
    await db.destroy();
    return 2;
  }
  try {
    const report = await reconcile({ js: jetstream(nc), jsm: await jetstreamManager(nc), db, topo: topology(process.env.ADRANK_NAMESPACE ?? ""), ...(values.account ? { accountId: values.account } : {}) });
    if (values.json) console.log(JSON.stringify(report, null, 2));
    else {
      for (const d of report.differences) console.log(`DIFF ${d.accountId} ${d.field}: stream=${JSON.stringify(d.stream)} projection=${JSON.stringify(d.projection)}`);
      for (const b of report.behind) console.log(`BEHIND ${b.accountId}: stream at ${b.streamSeq}, projection at ${b.projectedSeq}`);
      console.log(`${report.accountsChecked} accounts checked, ${report.differences.length} differences, ${report.behind.length} behind`);
    }
    return report.differences.length ? 1 : 0;
  } catch (err) {
    console.error(`reconcile failed: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  } finally {
    await nc.close();
    await db.destroy();
  }
}

process.exitCode = await main();
