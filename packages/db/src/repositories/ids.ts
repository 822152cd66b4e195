import { randomBytes } from "node:crypto";

/**
 * Public ids: a type prefix and 80 random bits in lower-case hex. They are subject-token safe
 * (account ids name ledger subjects) and say what they are when they show up in a log.
 */
export function newId(prefix: "acct" | "key" | "aud" | "usr"): string {
  return `${prefix}_${randomBytes(10).toString("hex")}`;
}
