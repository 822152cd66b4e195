import { issueKey } from "@adrank/api-keys";
import type { LedgerClient } from "@adrank/ledger-client";
import type { AccountsRepository } from "@adrank/db/repositories";
import { KeyLimitReachedError, type ApiKeysRepository } from "@adrank/db/repositories";

/** A refusal the operator can act on: printed as one line, exit code 1. */
export class AdminError extends Error {
  override name = "AdminError";
}

/** The ledger call `grant` needs; opened only for that command (it is the one that needs NATS). */
export type GrantLedger = Pick<LedgerClient, "grant">;

export interface AdminDeps {
  accounts: AccountsRepository;
  apiKeys: ApiKeysRepository;
  openLedger(): Promise<GrantLedger>;
  randomBytes(n: number): Uint8Array;
  randomUuid(): string;
  now(): Date;
  out(line: string): void;
  warn(line: string): void;
}

export type Flags = Record<string, string | undefined>;

const required = (flags: Flags, name: string): string => {
  const v = flags[name];
  if (v === undefined || v.trim() === "") throw new AdminError(`missing --${name}`);
  return v.trim();
};

async function accountMustExist(deps: AdminDeps, accountId: string): Promise<void> {
  if (!(await deps.accounts.find(accountId))) throw new AdminError(`no account with id ${accountId}`);
}

export const COMMANDS: Record<string, { usage: string; run(deps: AdminDeps, flags: Flags): Promise<void> }> = {
  "create-account": {
    usage: "create-account --name <name>",
    async run(deps, flags) {
      const account = await deps.accounts.create(required(flags, "name"));
      deps.out(account.id);
    },
  },
  grant: {
    usage: "grant --account <account id> --credits <n> [--reason <text>]",
    async run(deps, flags) {
      const accountId = required(flags, "account");
      const credits = Number(required(flags, "credits"));
      if (!Number.isSafeInteger(credits) || credits <= 0) throw new AdminError("--credits must be a positive whole number");
      await accountMustExist(deps, accountId);
      const ledger = await deps.openLedger();
      const reply = await ledger.grant({ accountId, grantId: deps.randomUuid(), credits, reason: flags.reason ?? "granted from the admin command line" });
      if (!reply.ok) throw new AdminError(`the ledger refused the grant: ${reply.rejection.type}`);
      deps.out(`granted ${credits} credits to ${accountId}; available ${reply.value.available}`);
    },
  },
  "create-key": {
    usage: "create-key --account <account id> [--name <name>]",
    async run(deps, flags) {
      const accountId = required(flags, "account");
      await accountMustExist(deps, accountId);
      const issued = issueKey(deps.randomBytes(41));
      let id: string;
      try {
        ({ id } = await deps.apiKeys.create({ accountId, name: flags.name?.trim() || "default", lookup: issued.lookup, hash: issued.hash, lastFour: issued.lastFour }));
      } catch (err) {
        if (err instanceof KeyLimitReachedError) {
          throw new AdminError(`${err.message} (MAX_ACTIVE_KEYS_PER_ACCOUNT): revoke one with revoke-key --key-id <id> first (list-keys --account ${accountId} shows them); no key was created`);
        }
        throw err;
      }
      deps.out(`id: ${id}`);
      deps.out(`key: ${issued.raw}`);
      deps.warn("This is the only time the key is shown: store it now. Lost keys cannot be recovered, only replaced.");
    },
  },
  "revoke-key": {
    usage: "revoke-key --key-id <key id>",
    async run(deps, flags) {
      const keyId = required(flags, "key-id");
      if (!(await deps.apiKeys.revoke(keyId, deps.now()))) throw new AdminError(`no key with id ${keyId}`);
      deps.out(`revoked ${keyId}; requests with it are refused within 5 seconds`);
    },
  },
  "list-keys": {
    usage: "list-keys --account <account id>",
    async run(deps, flags) {
      const accountId = required(flags, "account");
      await accountMustExist(deps, accountId);
      const keys = await deps.apiKeys.listForAccount(accountId);
      if (keys.length === 0) deps.out(`no keys for ${accountId}`);
      for (const k of keys) {
        const status = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : "active";
        const used = k.lastUsedAt ? `last used ${k.lastUsedAt.toISOString()}` : "never used";
        deps.out(`${k.id}  ${k.prefix}…${k.lastFour}  ${JSON.stringify(k.name)}  created ${k.createdAt.toISOString()}  ${status}  ${used}`);
      }
    },
  },
};

export function usage(): string {
  return ["usage: node services/gateway/src/admin/main.ts <command> [flags]", ...Object.values(COMMANDS).map((c) => `  ${c.usage}`)].join("\n");
}
