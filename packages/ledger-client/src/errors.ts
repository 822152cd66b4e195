/**
 * Why a ledger call could not be answered. The gateway maps every such failure to one
 * status in one place; the reason is there for logs and metrics.
 */
export type LedgerUnavailableReason = "no_responders" | "timeout" | "connection" | "server_error" | "bad_reply";

/** Base of every error the client throws (rejections are returned, never thrown). */
export class LedgerClientError extends Error {
  override name = "LedgerClientError";
}

/**
 * The ledger did not answer usefully: nobody listens, the request timed out, the connection
 * is gone, the ledger failed internally, or its reply did not match the contract. Keeps the
 * original error as `cause`.
 */
export class LedgerUnavailableError extends LedgerClientError {
  override name = "LedgerUnavailableError";
  readonly reason: LedgerUnavailableReason;
  readonly subject: string;
  constructor(reason: LedgerUnavailableReason, subject: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
    this.subject = subject;
  }
  isLedgerUnavailable(): true {
    return true;
  }
}

export function isLedgerUnavailable(err: unknown): err is LedgerUnavailableError {
  return err instanceof LedgerUnavailableError;
}

/** Classifies a failed `nc.request` by the nats.js error names along the cause chain. */
export function unavailableFromTransport(err: unknown, subject: string): LedgerUnavailableError {
  const names: string[] = [];
  let e: unknown = err;
  for (let depth = 0; e instanceof Error && depth < 5; depth++, e = e.cause) names.push(e.name);
  if (names.includes("NoRespondersError") || names.includes("NoResponders") || (err instanceof Error && "isNoResponders" in err && typeof err.isNoResponders === "function" && err.isNoResponders())) {
    return new LedgerUnavailableError("no_responders", subject, `no ledger service answered on ${subject}: is it running?`, { cause: err });
  }
  if (names.includes("TimeoutError")) {
    return new LedgerUnavailableError("timeout", subject, `the ledger did not answer on ${subject} in time`, { cause: err });
  }
  return new LedgerUnavailableError("connection", subject, `the ledger request on ${subject} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
}
