// Connection-level failures of PostgreSQL as pg reports them: the database is away, not the
// request wrong. SQLSTATE class 08 is "connection exception"; 57P01-57P03 are shutdowns.
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTFOUND", "57P01", "57P02", "57P03"]);
// "Query read timeout" is pg's query_timeout: the server took the query and never answered.
const MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout/i;

/** True when `err` (or one of its causes) says PostgreSQL could not be reached. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; typeof e === "object" && e !== null && depth < 5; depth++, e = (e as { cause?: unknown }).cause) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === "string" && (NETWORK_CODES.has(code) || code.startsWith("08"))) return true;
    if (typeof message === "string" && MESSAGES.test(message)) return true;
  }
  return false;
}
