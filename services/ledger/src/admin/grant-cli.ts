// Grants credits to an account through the running ledger and prints the new balance:
//   node services/ledger/src/admin/grant-cli.ts --account <id> --credits <n> [--reason text]
// Reads NATS_URL and ADRANK_NAMESPACE like the services.
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { createLedgerClient, isLedgerUnavailable } from "@adrank/ledger-client";
import { connectToNats, topology } from "@adrank/messaging";

const usage = "usage: grant-cli --account <id> --credits <n> [--reason text]";

async function main(): Promise<number> {
  let values: { account?: string; credits?: string; reason?: string };
  try {
    ({ values } = parseArgs({ options: { account: { type: "string" }, credits: { type: "string" }, reason: { type: "string" } }, strict: true }));
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n${usage}`);
    return 2;
  }
  const credits = Number(values.credits);
  if (!values.account || !Number.isSafeInteger(credits) || credits <= 0) {
    console.error(`--account and a positive whole --credits are required\n${usage}`);
    return 2;
  }
  const url = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
  let topo;
  try {
    topo = topology(process.env.ADRANK_NAMESPACE ?? "");
  } catch (err) {
    console.error(`ADRANK_NAMESPACE: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  }
  let nc;
  try {
    nc = await connectToNats({ url, name: "ledger-grant-cli", credentials: process.env });
  } catch (err) {
    console.error(`cannot connect to NATS at ${url}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  try {
    const ledger = createLedgerClient(nc, topo, { timeoutMs: 5_000 });
    const r = await ledger.grant({ accountId: values.account, grantId: `admin-${randomUUID()}`, credits, ...(values.reason ? { reason: values.reason } : {}) });
    if (!r.ok) {
      console.error(`grant refused: ${r.rejection.type === "InvalidCommand" ? r.rejection.reason : r.rejection.type}`);
      return 1;
    }
    const b = r.value;
    console.log(`granted ${credits} credits to ${values.account}: available ${b.available} (granted ${b.granted}, used ${b.used}, reserved ${b.reserved})`);
    return 0;
  } catch (err) {
    console.error(isLedgerUnavailable(err) ? err.message : `grant failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await nc.close();
  }
}

process.exitCode = await main();
