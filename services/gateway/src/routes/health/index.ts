import { sql } from "kysely";
import type { FastifyInstance } from "fastify";

const CHECK_TIMEOUT_MS = 2_000;

/** Settles with `true` when the check passes within the time-out, `false` otherwise. */
async function passes(check: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check().then(() => true as const), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `/healthz`: the process is up. `/readyz`: it can serve a rank request: NATS connected and
 * answering, Postgres answering, the ledger answering a balance query. 503 names what failed.
 */
export default async function healthRoutes(app: FastifyInstance) {
  app.get("/healthz", async () => ({ status: "ok" }));

  app.get("/readyz", async (_request, reply) => {
    const [nats, postgres, ledger] = await Promise.all([
      passes(async () => {
        if (app.bus.nc.isClosed()) throw new Error("closed");
        await app.bus.nc.flush();
      }),
      passes(() => sql`select 1`.execute(app.db)),
      // Any answer, even a refusal, shows the ledger is there; only a missing reply fails.
      passes(() => app.ledger.balance({ accountId: "readiness-probe" })),
    ]);
    const checks = { nats: up(nats), postgres: up(postgres), ledger: up(ledger) };
    const failed = Object.entries(checks)
      .filter(([, state]) => state === "down")
      .map(([name]) => name);
    if (failed.length > 0) return reply.code(503).send({ status: "unavailable", failed, checks });
    return { status: "ready", checks };
  });
}

const up = (ok: boolean) => (ok ? "up" : "down");
