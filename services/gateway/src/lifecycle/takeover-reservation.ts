import type { TakenOver, RequestsRepository } from "@adrank/db/repositories";
import { isLedgerUnavailable } from "@adrank/ledger-client";
import { takeoverReservation, type PreviousReservation } from "@adrank/request-records";
import { MeteringUnavailableError } from "../errors/api-errors.ts";
import { refusalOf, reserveUsage, type MeteringLedger } from "./metering.ts";
import type { UsageKind } from "@adrank/contracts";
import type { WorkLogger } from "./operation.ts";

/**
 * The reservation a takeover works under. It asks the ledger to reserve the previous
 * attempt's id again: the answer says whether that reservation is still open (work under it:
 * billed once), was never made (it is now), or is closed (reserve under a new id; free when
 * the dead owner had already settled it). See takeoverReservation in @adrank/request-records.
 */
export async function reserveForTakeover(
  ledger: MeteringLedger,
  repo: Pick<RequestsRepository, "setReservation">,
  t: TakenOver,
  usage: { kind: UsageKind; units: number; fetches: number },
  log: WorkLogger,
): Promise<{ reservationId: string; alreadyReserved: { windowRemaining: number }; free: boolean }> {
  const previousId = t.reservationId ?? t.requestId;
  const ask = { kind: usage.kind, accountId: t.accountId, keyId: t.keyId, units: usage.units, fetches: usage.fetches };
  let reply: Awaited<ReturnType<MeteringLedger["reserve"]>>;
  try {
    reply = await ledger.reserve({ ...ask, reservationId: previousId });
  } catch (err) {
    if (isLedgerUnavailable(err)) throw new MeteringUnavailableError({ cause: err });
    throw err;
  }
  let previous: PreviousReservation;
  let windowRemaining = 0;
  if (reply.ok) {
    previous = "reserved";
    windowRemaining = reply.value.windowRemaining;
  } else if (reply.rejection.type === "DuplicateReservation") {
    previous = reply.rejection.status;
  } else {
    throw refusalOf(reply.rejection, usage.kind);
  }
  const plan = takeoverReservation(t.requestId, t.attempt, previousId, previous);
  log.info({ requestId: t.requestId, attempt: t.attempt, previous, reservationId: plan.reservationId, billAgain: plan.billAgain }, "takeover reservation");
  if (plan.kind === "reserve-new") {
    const r = await reserveUsage(ledger, { ...ask, reservationId: plan.reservationId }, log);
    windowRemaining = r.windowRemaining;
    await repo.setReservation(t.requestId, plan.reservationId);
  }
  return { reservationId: plan.reservationId, alreadyReserved: { windowRemaining }, free: !plan.billAgain };
}
