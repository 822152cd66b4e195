import type { FastifyReply } from "fastify";
import type { Caller } from "../auth/authenticator.ts";
import { reserveUsage, type MeteringLedger } from "../operations/shared/metering.ts";
import { resultUrlOf } from "./request-status.ts";
import type { DurableWork, WorkLogger } from "./work.ts";

export interface AcceptAsync {
  reply: FastifyReply;
  requestId: string;
  work: DurableWork;
  caller: Caller;
  /** The 202 body, stored already for replays. */
  acceptedBody: string;
  ledger: MeteringLedger;
  log: WorkLogger;
  /** Forgets the request when the reservation is refused. */
  abandon(): Promise<void>;
  /** Starts the work in the background under the reservation just made. */
  start(windowRemaining: number): void;
}

/**
 * An asynchronous request after its row is written: credits and the rate window are checked
 * now, exactly as for a synchronous request (402/429 come back at once, and the request is
 * forgotten), then 202 with where to fetch the result.
 */
export async function acceptAsync(a: AcceptAsync): Promise<FastifyReply> {
  let reservation: { windowRemaining: number };
  try {
    reservation = await reserveUsage(a.ledger, { kind: a.work.kind, accountId: a.caller.accountId, keyId: a.caller.keyId, reservationId: a.requestId, units: a.work.units }, a.log);
  } catch (err) {
    await a.abandon().catch((e: unknown) => a.log.error({ err: e, requestId: a.requestId }, "forgetting a refused asynchronous request failed"));
    throw err;
  }
  a.start(reservation.windowRemaining);
  return a.reply
    .code(202)
    .header("Location", resultUrlOf(a.requestId))
    .header("Retry-After", "2")
    .header("X-RateLimit-Remaining", String(reservation.windowRemaining))
    .type("application/json; charset=utf-8")
    .send(a.acceptedBody);
}
