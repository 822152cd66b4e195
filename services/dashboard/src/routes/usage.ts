import type { FastifyInstance } from "fastify";
import type { Repos } from "../deps.ts";
import { requireUser } from "../require-user.ts";

/** Credits and usage per day, from the ledger's Postgres mirror of this namespace's stream (the last 30 days). */
export async function usageRoutes(app: FastifyInstance, { repos }: { repos: Repos }) {
  app.get("/usage", { preHandler: requireUser }, async (request) => {
    const accountId = request.user!.accountId;
    const balance = await repos.usage.balance(accountId);
    const days = await repos.usage.lastThirtyDays(accountId);
    return {
      balance: balance ?? { granted: 0, used: 0, reserved: 0, available: 0 },
      days,
    };
  });
}
