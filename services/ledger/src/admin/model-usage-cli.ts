// Model spend per account from the ledger's Postgres mirror: calls and tokens in and out per
// model and usage kind, over a range of UTC days of settlement (docs/ledger-mirror.md):
//   node services/ledger/src/admin/model-usage-cli.ts [--account <id>] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--json]
// The range defaults to the last 30 days, today included. Reads DATABASE_URL and ADRANK_NAMESPACE
// like the ledger. Exit code 0: printed (also when nothing was recorded); 2: usage or database error.
import { parseArgs } from "node:util";
import { usageRepository, type ModelSpend } from "@adrank/db/repositories";
import { openAdminDatabase } from "./connections.ts";

const USAGE = "usage: model-usage-cli [--account <id>] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--json]";
const DAY_MS = 86_400_000;

/** A real calendar day: 2026-02-30 would otherwise roll over into March. */
function isDay(s: string): boolean {
  const ms = Date.parse(`${s}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(s);
}
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function print(rows: ModelSpend[], heading: string): void {
  console.log(heading);
  if (rows.length === 0) {
    console.log("no model usage recorded");
    return;
  }
  const table = [["account", "model", "kind", "calls", "input tokens", "output tokens"], ...rows.map((r) => [r.accountId, r.model, r.kind, String(r.calls), String(r.inputTokens), String(r.outputTokens)])];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((cells) => cells[i]!.length)));
  // Names to the left, numbers to the right.
  for (const cells of table) console.log(cells.map((c, i) => (i < 3 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ").trimEnd());
}

async function main(): Promise<number> {
  let values: { account?: string; from?: string; to?: string; json?: boolean };
  try {
    ({ values } = parseArgs({ options: { account: { type: "string" }, from: { type: "string" }, to: { type: "string" }, json: { type: "boolean" } }, strict: true }));
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    return 2;
  }
  const to = values.to ?? dayOf(Date.now());
  const from = values.from ?? dayOf(Date.parse(`${to}T00:00:00Z`) - 29 * DAY_MS);
  if (!isDay(to) || !isDay(from) || from > to) {
    console.error(`--from and --to must be days YYYY-MM-DD, --from not after --to\n${USAGE}`);
    return 2;
  }
  const opened = openAdminDatabase("adrank-model-usage");
  if ("error" in opened) {
    console.error(opened.error);
    return 2;
  }
  try {
    const rows = await usageRepository(opened.db, opened.stream).modelSpend({ from, to, ...(values.account ? { accountId: values.account } : {}) });
    if (values.json) console.log(JSON.stringify({ stream: opened.stream, from, to, accountId: values.account ?? null, rows }, null, 2));
    else print(rows, `model usage in ${opened.stream}, UTC days ${from} to ${to}, ${values.account ? `account ${values.account}` : "all accounts"} (settled requests)`);
    return 0;
  } catch (err) {
    console.error(`model-usage failed: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  } finally {
    await opened.db.destroy();
  }
}

process.exitCode = await main();
