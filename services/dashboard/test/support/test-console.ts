import { consoleLimitsRepository } from "@adrank/db/repositories";
import type { TestDatabase } from "@adrank/db/testing";
import { createLogger, createSecretBox, webhookSecretBox } from "@adrank/runtime";
import type { FastifyInstance } from "fastify";
import { buildDashboard, type DashboardDeps } from "../../src/app.ts";
import { createLimitCounters } from "../../src/limit-counters.ts";
import { createSignInLimiter } from "../../src/sign-in-limiter.ts";
import { createSignUpLimiter } from "../../src/sign-up-limiter.ts";

/**
 * A console on a test database with a ledger that grants nothing and a gateway nobody listens
 * on; `overrides` set whatever a test is about (limits, the gateway, proxy hops).
 */
export function buildTestConsole(db: TestDatabase["db"], overrides: Partial<DashboardDeps> = {}): Promise<FastifyInstance> {
  const counters = createLimitCounters(consoleLimitsRepository(db));
  return buildDashboard({
    db,
    ledger: { grant: async () => ({ ok: true, value: { available: 0 } }) as never, balance: async () => ({ ok: true, value: { available: 0 } }) as never },
    ledgerStream: "LEDGER",
    logger: createLogger("dashboard-test", "silent"),
    box: createSecretBox("x".repeat(40), "playground-keys"),
    webhookSecretBox: webhookSecretBox("k".repeat(40)),
    signInLimiter: createSignInLimiter(counters, { maxFailures: 3, windowMs: 15 * 60_000 }),
    signUpLimiter: createSignUpLimiter(counters, { perAddress: 100, global: 1_000, windowMs: 3_600_000 }),
    gatewayUrl: "http://127.0.0.1:9",
    signupCredits: 0,
    sessionTtlMs: 3_600_000,
    secureCookies: false,
    ...overrides,
  });
}
