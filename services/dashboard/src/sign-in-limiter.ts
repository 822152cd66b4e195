import { addressKey } from "./client-address.ts";
import type { LimitCounters, TakenSlot } from "./limit-counters.ts";

export interface SignInLimits {
  /** Failed sign-ins one email may have per window; one address gets four times as many. */
  maxFailures: number;
  windowMs: number;
}

export type SignInVerdict = { ok: true; attempt: SignInAttempt } | { ok: false; retryAfter: number };

export interface SignInAttempt {
  email: string;
  taken: TakenSlot[];
}

/**
 * Failed sign-ins per email and per client address in fixed windows, counted in Postgres so
 * the limit holds across console replicas: after `maxFailures` for an email (four times that
 * for an address, which several people may share) the next attempt is refused until the
 * window ends. Each attempt is counted as a failure before its password is checked, so
 * concurrent guesses cannot slip past the limit; a success clears the email's count and gives
 * the address its attempt back.
 */
export function createSignInLimiter(counters: Pick<LimitCounters, "take" | "giveBack" | "clear">, limits: SignInLimits) {
  return {
    async begin(email: string, ip: string): Promise<SignInVerdict> {
      const subject = email.toLowerCase();
      const taken = await counters.take([
        { scope: "signin:email", subject, limit: limits.maxFailures, windowMs: limits.windowMs },
        { scope: "signin:address", subject: addressKey(ip), limit: limits.maxFailures * 4, windowMs: limits.windowMs },
      ]);
      return taken.ok ? { ok: true, attempt: { email: subject, taken: taken.taken } } : { ok: false, retryAfter: taken.retryAfter };
    },
    /** The password was right: the attempt was no failure. */
    async succeed(attempt: SignInAttempt): Promise<void> {
      await counters.clear("signin:email", attempt.email);
      await counters.giveBack(attempt.taken.filter((t) => t.key.startsWith("signin:address:")));
    },
  };
}
export type SignInLimiter = ReturnType<typeof createSignInLimiter>;
