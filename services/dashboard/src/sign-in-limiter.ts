import { addressKey } from "./client-address.ts";
import { processDeviceTokens, type DeviceTokens } from "./device-token.ts";
import type { LimitCounters, TakenSlot } from "./limit-counters.ts";

/** How long a browser is remembered as a known device of an email, unless configured. */
export const DEVICE_TOKEN_DAYS = 30;

export interface SignInLimits {
  /**
   * Failed sign-ins one email may have from one client address, and from one known device,
   * per window. One address gets four times as many across all emails.
   */
  maxFailures: number;
  /** Failed sign-ins one email may have from all unknown devices together per window; four times `maxFailures` unless given. */
  maxFailuresPerEmail?: number;
  windowMs: number;
}

export type SignInVerdict = { ok: true; attempt: SignInAttempt } | { ok: false; retryAfter: number };

export interface SignInAttempt {
  email: string;
  taken: TakenSlot[];
  /** The known-device token's id when the attempt was counted on it. */
  device: string | null;
}

/**
 * The limits on guessing a password, which must not become a way to lock its owner out.
 * Every attempt is counted as a failure before its password is checked (parallel guesses
 * cannot slip past) and given back when the password was right; counted in Postgres so the
 * limits hold across console replicas.
 *
 * - A browser with a valid known-device token for the email (device-token.ts, set by every
 *   successful sign-in and sign-up) counts only on that token: `maxFailures` per window. A
 *   token that has failed that often is trusted no more and falls to the limits below.
 * - Any other client counts on the pair of email and client address (`maxFailures`), on its
 *   address (four times `maxFailures`, all emails together) and on the email across every
 *   address (`maxFailuresPerEmail`).
 *
 * So an attacker guessing from one address is stopped after `maxFailures`, while the victim
 * signs in from another address, or from the attacker's own (an office, a carrier NAT) with
 * the device token. Guessing spread over many addresses is stopped by the per-email limit;
 * that limit can lock out the email's unknown devices, never its known ones.
 */
export function createSignInLimiter(counters: Pick<LimitCounters, "take" | "giveBack" | "clear">, limits: SignInLimits, devices: DeviceTokens = processDeviceTokens(DEVICE_TOKEN_DAYS * 86_400_000)) {
  const { maxFailures, windowMs } = limits;
  const perEmail = limits.maxFailuresPerEmail ?? maxFailures * 4;
  return {
    /** How long the browser keeps its known-device token, in seconds. */
    deviceMaxAgeS: devices.maxAgeS,

    async begin(email: string, ip: string, deviceToken: string | null = null): Promise<SignInVerdict> {
      const subject = email.toLowerCase();
      const device = deviceToken ? devices.verify(deviceToken, subject) : null;
      if (device) {
        const own = await counters.take([{ scope: "signin:device", subject: device, limit: maxFailures, windowMs }]);
        if (own.ok) return { ok: true, attempt: { email: subject, taken: own.taken, device } };
      }
      const address = addressKey(ip);
      // An email holds no whitespace (credentials.ts), so the newline cannot join two other values into this pair.
      const taken = await counters.take([
        { scope: "signin:email-address", subject: `${subject}\n${address}`, limit: maxFailures, windowMs },
        { scope: "signin:address", subject: address, limit: maxFailures * 4, windowMs },
        { scope: "signin:email", subject, limit: perEmail, windowMs },
      ]);
      return taken.ok ? { ok: true, attempt: { email: subject, taken: taken.taken, device: null } } : { ok: false, retryAfter: taken.retryAfter };
    },

    /** The password was right: the attempt was no failure. Returns the browser's fresh known-device token. */
    async succeed(attempt: SignInAttempt): Promise<string> {
      await counters.giveBack(attempt.taken);
      if (attempt.device) await counters.clear("signin:device", attempt.device);
      return devices.issue(attempt.email);
    },

    /** A known-device token for a browser that proved the password another way (it just chose it at sign-up). */
    rememberDevice(email: string): string {
      return devices.issue(email.toLowerCase());
    },
  };
}
export type SignInLimiter = ReturnType<typeof createSignInLimiter>;
