// Accounts, credits and keys from a terminal:
//   node services/gateway/src/admin/main.ts create-account --name "Acme"
import { randomBytes, randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { z } from "zod";
import { assertSchemaCurrent, createDb, SchemaNotCurrentError } from "@adrank/db";
import { createLedgerClient } from "@adrank/ledger-client";
import { connectToNats, topology, type NatsConnection } from "@adrank/messaging";
import { BaseEnv, envInt, loadConfig } from "@adrank/runtime";
import { accountsRepository } from "@adrank/db/repositories";
import { apiKeysRepository, DEFAULT_MAX_ACTIVE_KEYS_PER_ACCOUNT } from "@adrank/db/repositories";
import { AdminError, COMMANDS, usage } from "./commands.ts";

const AdminEnv = BaseEnv.extend({
  ADRANK_NAMESPACE: z.string().regex(/^[A-Za-z0-9_-]*$/).default(""),
  LEDGER_TIMEOUT_MS: envInt(3_000, 100, 30_000),
  /** Active API keys one account may hold; the console reads the same setting. */
  MAX_ACTIVE_KEYS_PER_ACCOUNT: envInt(DEFAULT_MAX_ACTIVE_KEYS_PER_ACCOUNT, 1, 1_000),
});

const [name, ...rest] = process.argv.slice(2);
const command = name ? COMMANDS[name] : undefined;
if (!command) {
  console.error(name ? `admin: unknown command ${JSON.stringify(name)}\n${usage()}` : usage());
  process.exit(2);
}

let flags: Record<string, string | undefined>;
try {
  flags = parseArgs({ args: rest, options: { name: { type: "string" }, account: { type: "string" }, credits: { type: "string" }, reason: { type: "string" }, "key-id": { type: "string" } }, strict: true }).values;
} catch (err) {
  console.error(`admin: ${err instanceof Error ? err.message : String(err)}\n${usage()}`);
  process.exit(2);
}

let config: z.infer<typeof AdminEnv>;
try {
  config = loadConfig(AdminEnv);
} catch (err) {
  console.error(`admin: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(2);
}

const db = createDb({ connectionString: config.DATABASE_URL, max: 2, applicationName: "adrank-admin" });
let nc: NatsConnection | null = null;
try {
  // Never migrates: a schema that is not this build's stops here with what to do (one line below).
  await assertSchemaCurrent(db);
  await command.run(
    {
      accounts: accountsRepository(db),
      apiKeys: apiKeysRepository(db, { maxActiveKeys: config.MAX_ACTIVE_KEYS_PER_ACCOUNT }),
      async openLedger() {
        const topo = topology(config.ADRANK_NAMESPACE);
        nc = await connectToNats({ url: config.NATS_URL, name: "adrank-admin", credentials: config });
        return createLedgerClient(nc, topo, { timeoutMs: config.LEDGER_TIMEOUT_MS });
      },
      randomBytes: (n) => randomBytes(n),
      randomUuid: () => randomUUID(),
      now: () => new Date(),
      out: (line) => console.log(line),
      warn: (line) => console.error(line),
    },
    flags,
  );
} catch (err) {
  // One line for the operator; the cause of an unexpected failure is on the same line.
  const message = err instanceof AdminError || err instanceof SchemaNotCurrentError ? err.message : `failed: ${err instanceof Error ? err.message : String(err)}${err instanceof Error && err.cause ? ` (${String(err.cause)})` : ""}`;
  console.error(`admin: ${message}`);
  process.exitCode = 1;
} finally {
  await (nc as NatsConnection | null)?.close();
  await db.destroy();
}
