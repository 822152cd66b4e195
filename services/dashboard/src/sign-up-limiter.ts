import { addressKey } from "./client-address.ts";
import type { LimitCounters } from "./limit-counters.ts";

export interface SignUpLimits {
  /** Sign-ups one client address (an IPv6 /64) may attempt per window. */
  perAddress: number;
  /** Sign-ups all addresses together may attempt per window: the bound on hashing and on accounts made. */
  global: number;
  windowMs: number;
}

export type SignUpVerdict = { ok: true } | { ok: false; retryAfter: number; reason: "address" | "global" };

/**
 * Counts a sign-up attempt against its address and against everyone, in Postgres so the
 * limits hold across console replicas. Called before the password is hashed: a refused
 * attempt costs one small query, never a 32 MiB scrypt. An attempt the address limit refuses
 * does not use up the global allowance.
 */
export function createSignUpLimiter(counters: Pick<LimitCounters, "take">, limits: SignUpLimits) {
  return {
    async take(ip: string): Promise<SignUpVerdict> {
      const taken = await counters.take([
        { scope: "signup:address", subject: addressKey(ip), limit: limits.perAddress, windowMs: limits.windowMs },
        { scope: "signup:all", subject: "", limit: limits.global, windowMs: limits.windowMs },
      ]);
      if (taken.ok) return { ok: true };
      return { ok: false, retryAfter: taken.retryAfter, reason: taken.scope === "signup:all" ? "global" : "address" };
    },
  };
}
export type SignUpLimiter = ReturnType<typeof createSignUpLimiter>;
