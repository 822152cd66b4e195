/** SQLSTATE 57014, query_canceled: PostgreSQL stopped the statement at its statement_timeout. */
const QUERY_CANCELED = "57014";

/** True when `err` (or one of its causes) is a statement the database cancelled. */
export function isQueryCancelled(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; typeof e === "object" && e !== null && depth < 5; depth++, e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === QUERY_CANCELED) return true;
  }
  return false;
}
