// `npm run models -- check [--json] [--role generators|embedder|voters] [--timeout-ms N]`:
// one minimal real call per configured model, with the same environment the services read.
// `npm run models -- table`: the capability table (what each model family is sent), as Markdown.
import { parseArgs } from "node:util";
import { ConfigError } from "@adrank/runtime";
import { capabilityTableMarkdown } from "../capabilities/capability-table.ts";
import { modelsFromEnv } from "../config/models-from-env.ts";
import { checkModels } from "./check-models.ts";
import { formatCheckTable } from "./format-check-table.ts";

const USAGE = `usage: npm run models -- check [--json] [--role generators|embedder|voters] [--timeout-ms N]
       npm run models -- table

Makes one minimal real call per configured model (ADRANK_GENERATORS, ADRANK_EMBEDDER,
ADRANK_VOTER(S), provider profiles) and prints model, result, latency, tokens and, for each
failure, the setting to fix. Exits 0 when every check passed, 1 when one failed, 2 on a
configuration error. "table" prints what each known model family is sent (docs/models.md).`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: "boolean", default: false }, role: { type: "string", multiple: true }, "timeout-ms": { type: "string" }, help: { type: "boolean", short: "h", default: false } },
  });
  if (positionals[0] === "table" && positionals.length === 1) {
    console.log(capabilityTableMarkdown());
    return 0;
  }
  if (values.help || positionals[0] !== "check" || positionals.length > 1) {
    (values.help ? console.log : console.error)(USAGE);
    return values.help ? 0 : 2;
  }
  const roles = new Set(values.role ?? ["generators", "embedder", "voters"]);
  for (const r of roles) {
    if (!["generators", "embedder", "voters"].includes(r)) {
      console.error(`--role must be generators, embedder or voters, got "${r}"`);
      return 2;
    }
  }
  const timeoutMs = values["timeout-ms"] === undefined ? 60_000 : Number(values["timeout-ms"]);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100) {
    console.error(`--timeout-ms must be a whole number of at least 100, got "${values["timeout-ms"]}"`);
    return 2;
  }
  let models;
  try {
    models = modelsFromEnv(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
  const rows = await checkModels(
    {
      ...(roles.has("generators") ? { generators: models.generators } : {}),
      ...(roles.has("embedder") ? { embedder: models.embedder } : {}),
      ...(roles.has("voters") ? { voters: models.voters } : {}),
    },
    { timeoutMs },
  );
  if (values.json) {
    console.log(JSON.stringify({ warnings: models.warnings, checks: rows }, null, 2));
  } else {
    for (const w of models.warnings) console.log(`warning: ${w}`);
    if (models.warnings.length > 0) console.log("");
    console.log(formatCheckTable(rows));
  }
  return rows.every((r) => r.ok) ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
