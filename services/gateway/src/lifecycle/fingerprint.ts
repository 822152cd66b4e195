import { createHash } from "node:crypto";
import { canonicalJson } from "@adrank/request-records";

/**
 * What an Idempotency-Key repeat must match: the operation and the body's meaning (canonical
 * JSON, so key order and white space do not count).
 */
export function fingerprintOf(operation: string, body: unknown): string {
  return createHash("sha256").update(operation).update("\n").update(canonicalJson(body)).digest("hex");
}
