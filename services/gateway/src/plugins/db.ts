import fp from "fastify-plugin";
import type { Kysely } from "kysely";
import type { Database } from "@adrank/db";
import { accountsRepository, type AccountsRepository } from "@adrank/db/repositories";
import { apiKeysRepository, type ApiKeysRepository } from "@adrank/db/repositories";
import { audiencesRepository, type AudiencesRepository } from "@adrank/db/repositories";
import { requestsRepository, type RequestsRepository } from "@adrank/db/repositories";
import { outcomesRepository, type OutcomesRepository } from "@adrank/db/repositories";

export interface Repositories {
  accounts: AccountsRepository;
  apiKeys: ApiKeysRepository;
  audiences: AudiencesRepository;
  requests: RequestsRepository;
  outcomes: OutcomesRepository;
}

declare module "fastify" {
  interface FastifyInstance {
    db: Kysely<Database>;
    repos: Repositories;
  }
}

/** Postgres and the repositories over it; routes never write SQL themselves. */
export default fp(
  async (app, opts: { db: Kysely<Database> }) => {
    app.decorate("db", opts.db);
    app.decorate("repos", {
      accounts: accountsRepository(opts.db),
      apiKeys: apiKeysRepository(opts.db),
      audiences: audiencesRepository(opts.db),
      requests: requestsRepository(opts.db),
      outcomes: outcomesRepository(opts.db),
    });
  },
  { name: "db" },
);
