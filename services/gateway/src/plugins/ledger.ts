import fp from "fastify-plugin";
import type { LedgerClient } from "@adrank/ledger-client";

/** What the gateway asks the ledger: reservations, settlements, and a balance for readiness. */
export type GatewayLedger = Pick<LedgerClient, "reserve" | "settle" | "balance">;

declare module "fastify" {
  interface FastifyInstance {
    ledger: GatewayLedger;
  }
}

export default fp(
  async (app, opts: { ledger: GatewayLedger }) => {
    app.decorate("ledger", opts.ledger);
  },
  { name: "ledger" },
);
