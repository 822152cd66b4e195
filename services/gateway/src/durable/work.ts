import type { RequestOperation, UsageKind } from "@adrank/contracts";
import type { Caller } from "../auth/authenticator.ts";
import type { MeteredResult } from "../operations/shared/metered-request.ts";

/** A logger as the work and the durable layer use it (fastify's request logger fits). */
export interface WorkLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  child(bindings: object): WorkLogger;
}

/** One attempt at a request's work. */
export interface WorkCall {
  /** The public id: the response's request_id. */
  requestId: string;
  /** The id the attempt's jobs travel under on the bus (a takeover's differs from the first attempt's). */
  runId: string;
  /** Epoch ms the attempt started: its time limit counts from here. */
  receivedAt: number;
  /** Fires when the client leaves; never for a durable request, whose work outlives the connection. */
  clientGone: AbortSignal;
  reservationId: string;
  alreadyReserved?: { windowRemaining: number };
  free?: boolean;
  onProgress(done: number): void;
  traceparent: string | null;
  log: WorkLogger;
}

/** A validated rank or pairwise request, ready to run: what the durable layer needs to know of it. */
export interface DurableWork {
  operation: RequestOperation;
  kind: UsageKind;
  /** The most units it can use: what is reserved. */
  units: number;
  unit: "assets" | "pairs";
  total: number;
  async: boolean;
  webhookUrl: string | undefined;
  run(call: WorkCall): Promise<MeteredResult<unknown>>;
}

/**
 * Turns a raw JSON body into work for the caller: parses it (400/422) and resolves its
 * audience (404). The routes use it on arrival; a takeover uses it on a stored body.
 */
export type WorkFactory = (body: unknown, caller: Caller) => Promise<DurableWork>;
