import type { ModelUsage } from "@adrank/bus-contracts";
import type { SettlementsRepository } from "@adrank/db/repositories";
import { isLedgerUnavailable } from "@adrank/ledger-client";
import { runPeriodically } from "@adrank/runtime";
import type { MeteringLedger, MeteringLogger } from "./metering.ts";

export interface SettlementRelayOptions {
  repo: Pick<SettlementsRepository, "claimDue" | "finish" | "failed" | "reportSettled">;
  /** The LEDGER stream this deployment bills on: the outbox rows that are ours. */
  stream: string;
  ledger: MeteringLedger;
  log: MeteringLogger & { info(obj: object, msg?: string): void };
  /** How often to look (SETTLEMENT_RELAY_MS). */
  intervalMs: number;
  /** Called once per settlement the relay closed, with how it ended. */
  onFinished?(outcome: "applied" | "refused"): void;
}

/** A claimed settlement is retried this long after an attempt that got no answer. */
const RETRY_MS = 10_000;
const BATCH = 50;
/** A stored answer that is still not there this long after its charge was settled is not waited for any more (a plain answer whose write failed). */
const REPORT_GIVE_UP_MS = 10 * 60_000;

/**
 * Applies the settles the ledger did not confirm while their request waited (the outbox), and
 * then brings each request's stored answer up to date with what was charged. Every gateway
 * runs one; a claim keeps two from working on the same row at once, and a settle that is
 * applied twice anyway is harmless: the ledger answers a repeat with the first outcome.
 */
export function startSettlementRelay(o: SettlementRelayOptions): { runOnce(): Promise<void>; stop(): Promise<void> } {
  async function runOnce(): Promise<void> {
    const due = await o.repo.claimDue(o.stream, BATCH, RETRY_MS);
    for (const s of due) {
      try {
        const reply = await o.ledger.settle({
          accountId: s.accountId,
          reservationId: s.reservationId,
          unitsUsed: s.unitsUsed,
          ...(s.modelUsage && s.modelUsage.length > 0 ? { modelUsage: s.modelUsage as ModelUsage[] } : {}),
        });
        if (reply.ok) {
          await o.repo.finish(o.stream, s.reservationId, { state: "applied", creditsUsed: reply.value.creditsUsed, balance: reply.value.balance });
          o.log.info({ reservationId: s.reservationId, requestId: s.requestId, creditsUsed: reply.value.creditsUsed, attempts: s.attempts }, "applied a settlement the request could not confirm");
          o.onFinished?.("applied");
        } else {
          await o.repo.finish(o.stream, s.reservationId, { state: "refused", reason: JSON.stringify(reply.rejection) });
          o.log.error({ reservationId: s.reservationId, requestId: s.requestId, unitsUsed: s.unitsUsed, rejection: reply.rejection }, "the ledger refused a relayed settlement: nothing was charged");
          o.onFinished?.("refused");
        }
      } catch (err) {
        const reason = isLedgerUnavailable(err) ? `ledger ${err.reason}` : err instanceof Error ? err.message : String(err);
        await o.repo.failed(o.stream, s.reservationId, reason).catch(() => undefined);
        o.log.warn({ reservationId: s.reservationId, attempts: s.attempts, reason, retryInMs: RETRY_MS }, "relaying a settlement failed; it is tried again");
      }
    }
    await o.repo.reportSettled(o.stream, 100, REPORT_GIVE_UP_MS);
  }

  const periodic = runPeriodically(runOnce, o.intervalMs, (err) => o.log.warn({ err }, "the settlement relay could not run; it tries again"));
  return { runOnce, stop: () => periodic.stop() };
}
