/** A failure the operator can act on, said in one line; the run exits 1 and stores nothing. */
export class DriftError extends Error {
  override name = "DriftError";
}
