// Model spend from the ledger's Postgres mirror: calls, tokens (uncached input, cached input,
// cache writes, output) and spend in USD at the price table, over a range of UTC days of
// settlement, or of one request (docs/ledger-mirror.md#model-spend):
//   node services/ledger/src/admin/model-usage-cli.ts [--account <id>] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--by model|account|day] [--prices <file>] [--json]
//   node services/ledger/src/admin/model-usage-cli.ts --request <id> [--prices <file>] [--json]
// The range defaults to the last 30 days, today included; --by to model (per account, model and
// kind). Prices: --prices, else ADRANK_MODEL_PRICES_FILE, else the default table. Reads
// DATABASE_URL and ADRANK_NAMESPACE like the ledger. Exit code 0: printed (also when nothing
// was recorded); 2: usage, price file or database error.
import { parseArgs } from "node:util";
import { DEFAULT_PRICE_TABLE, DEFAULT_PRICES_READ_ON, type PriceTable } from "@adrank/ledger-domain";
import { usageRepository, type RequestSettlement } from "@adrank/db/repositories";
import { loadPriceTable } from "../model-price-file.ts";
import { openAdminDatabase } from "./connections.ts";
import { settlementSpend, spendReport, SPEND_GROUPINGS, type SpendGrouping, type SpendReport, type SpendTotals } from "./model-spend-report.ts";

const USAGE =
  "usage: model-usage-cli [--account <id>] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--by model|account|day] [--prices <file>] [--json]\n" +
  "       model-usage-cli --request <id> [--prices <file>] [--json]";
const DAY_MS = 86_400_000;

/** A real calendar day: 2026-02-30 would otherwise roll over into March. */
function isDay(s: string): boolean {
  const ms = Date.parse(`${s}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(s);
}
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const TOKEN_HEADINGS = ["calls", "uncached input", "cached input", "cache writes", "output", "spend USD"];
const tokenCells = (t: SpendTotals & { spendText: string }) => [t.calls, t.uncachedInputTokens, t.cachedInputTokens, t.cacheWriteInputTokens, t.outputTokens].map(String).concat(t.spendText);

/** Prints a table: the first `names` columns to the left, numbers to the right. */
function printTable(table: string[][], names: number): void {
  const widths = table[0]!.map((_, i) => Math.max(...table.map((cells) => cells[i]!.length)));
  for (const cells of table) console.log(cells.map((c, i) => (i < names ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ").trimEnd());
}

/** The footnote of a spend marked "*": which models have no price. */
function printUnpriced(unpriced: string[]): void {
  if (unpriced.length > 0) console.log(`* without the models that have no price: ${unpriced.join(", ")} (add them with --prices or ADRANK_MODEL_PRICES_FILE)`);
}

function printReport(report: SpendReport, by: SpendGrouping, heading: string): void {
  console.log(heading);
  if (report.rows.length === 0) {
    console.log("no model usage recorded");
    return;
  }
  const keys: Array<"accountId" | "model" | "kind" | "day"> = by === "model" ? ["accountId", "model", "kind"] : by === "account" ? ["accountId"] : ["day"];
  const keyHeadings = { accountId: "account", model: "model", kind: "kind", day: "day" };
  const table = [
    [...keys.map((k) => keyHeadings[k]), ...TOKEN_HEADINGS],
    ...report.rows.map((r) => [...keys.map((k) => r[k] ?? ""), ...tokenCells(r)]),
    ["total", ...keys.slice(1).map(() => ""), ...tokenCells(report.total)],
  ];
  printTable(table, keys.length);
  printUnpriced(report.total.unpricedModels);
}

function printRequest(requestId: string, settlements: RequestSettlement[], prices: PriceTable, stream: string): void {
  console.log(`model usage of request ${requestId} in ${stream}`);
  if (settlements.length === 0) {
    console.log("no settlement of this request in the mirror (not settled yet, expired, or another namespace's)");
    return;
  }
  const all = settlementSpend(
    settlements.flatMap((s) => s.modelUsage),
    prices,
  );
  for (const s of settlements) {
    console.log(`settlement ${s.reservationId}: account ${s.accountId}, ${s.kind}, ${s.unitsUsed} credits, ${s.settledAt}`);
    const spend = settlementSpend(s.modelUsage, prices);
    if (spend.models.length === 0) {
      console.log("  no model usage reported");
      continue;
    }
    printTable([["model", ...TOKEN_HEADINGS], ...spend.models.map((m) => [m.model, ...tokenCells(m)])], 1);
  }
  console.log(`total spend USD ${all.total.spendText}`);
  printUnpriced(all.total.unpricedModels);
}

const withoutText = <T extends { spendText: string }>({ spendText: _, ...rest }: T) => rest;

/** Where the prices came from, for the report's heading and JSON. */
const priceSource = (file: string | undefined) => (file ? `file ${file}` : `default table read ${DEFAULT_PRICES_READ_ON}`);

async function main(): Promise<number> {
  let values: { account?: string; from?: string; to?: string; by?: string; request?: string; prices?: string; json?: boolean };
  try {
    ({ values } = parseArgs({
      options: { account: { type: "string" }, from: { type: "string" }, to: { type: "string" }, by: { type: "string" }, request: { type: "string" }, prices: { type: "string" }, json: { type: "boolean" } },
      strict: true,
    }));
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    return 2;
  }
  if (values.request !== undefined && (values.account !== undefined || values.from !== undefined || values.to !== undefined || values.by !== undefined)) {
    console.error(`--request takes no --account, --from, --to or --by\n${USAGE}`);
    return 2;
  }
  if (values.request === "") {
    console.error(`--request needs a request id\n${USAGE}`);
    return 2;
  }
  const by = (values.by ?? "model") as SpendGrouping;
  if (!SPEND_GROUPINGS.includes(by)) {
    console.error(`--by must be one of ${SPEND_GROUPINGS.join(", ")}\n${USAGE}`);
    return 2;
  }
  const to = values.to ?? dayOf(Date.now());
  const from = values.from ?? dayOf(Date.parse(`${to}T00:00:00Z`) - 29 * DAY_MS);
  if (!isDay(to) || !isDay(from) || from > to) {
    console.error(`--from and --to must be days YYYY-MM-DD, --from not after --to\n${USAGE}`);
    return 2;
  }
  const pricesFile = values.prices ?? (process.env.ADRANK_MODEL_PRICES_FILE || undefined);
  const prices = pricesFile ? await loadPriceTable(pricesFile) : DEFAULT_PRICE_TABLE;
  if ("error" in prices) {
    console.error(prices.error);
    return 2;
  }
  const opened = openAdminDatabase("adrank-model-usage");
  if ("error" in opened) {
    console.error(opened.error);
    return 2;
  }
  try {
    const usage = usageRepository(opened.db, opened.stream);
    if (values.request !== undefined) {
      const settlements = await usage.requestSettlements(values.request);
      if (values.json) {
        const priced = settlements.map((s) => {
          const spend = settlementSpend(s.modelUsage, prices);
          return { ...s, models: spend.models.map(withoutText), total: withoutText(spend.total) };
        });
        const total = withoutText(settlementSpend(settlements.flatMap((s) => s.modelUsage), prices).total);
        console.log(JSON.stringify({ stream: opened.stream, requestId: values.request, prices: priceSource(pricesFile), settlements: priced, total }, null, 2));
      } else printRequest(values.request, settlements, prices, opened.stream);
      return 0;
    }
    const report = spendReport(await usage.dailyModelSpend({ from, to, ...(values.account ? { accountId: values.account } : {}) }), by, prices);
    if (values.json) {
      console.log(JSON.stringify({ stream: opened.stream, from, to, accountId: values.account ?? null, by, prices: priceSource(pricesFile), rows: report.rows.map(withoutText), total: withoutText(report.total) }, null, 2));
    } else {
      const who = values.account ? `account ${values.account}` : "all accounts";
      printReport(report, by, `model usage in ${opened.stream}, UTC days ${from} to ${to}, ${who} (settled requests; prices: ${priceSource(pricesFile)})`);
    }
    return 0;
  } catch (err) {
    console.error(`model-usage failed: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  } finally {
    await opened.db.destroy();
  }
}

process.exitCode = await main();
