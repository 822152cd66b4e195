import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { requireUser, type DashboardDeps } from "../app.ts";

/** Credits and usage per day, from the ledger's Postgres mirror of this namespace's stream (the last 30 days). */
export async function usageRoutes(app: FastifyInstance, { deps }: { deps: DashboardDeps }) {
  app.get("/usage", { preHandler: requireUser }, async (request) => {
    const accountId = request.user!.accountId;
    const balance = await deps.db.selectFrom("account_balances").select(["granted", "used", "reserved", "available"]).where("stream", "=", deps.ledgerStream).where("account_id", "=", accountId).executeTakeFirst();
    const days = await deps.db
      .selectFrom("usage_per_day")
      .select(["day", "kind", "units_used"])
      .where("stream", "=", deps.ledgerStream)
      .where("account_id", "=", accountId)
      .where("day", ">=", sql<Date>`(now() at time zone 'UTC')::date - 29`)
      .orderBy("day")
      .execute();
    return {
      balance: balance ? { granted: Number(balance.granted), used: Number(balance.used), reserved: Number(balance.reserved), available: Number(balance.available) } : { granted: 0, used: 0, reserved: 0, available: 0 },
      days: days.map((d) => ({ day: (d.day instanceof Date ? d.day.toISOString() : String(d.day)).slice(0, 10), kind: d.kind, units: Number(d.units_used) })),
    };
  });
}
