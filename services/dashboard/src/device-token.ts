import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";

/** Longer than any token `issue` makes: a longer cookie is refused before anything is computed. */
const MAX_TOKEN_CHARS = 128;

/**
 * Known-device tokens (OWASP's "device cookie" against lock-out): a successful sign-in leaves a
 * token in the browser saying "this browser signed in as this email". Its failures are then
 * counted on the token alone, so other people's wrong passwords for the same email do not lock
 * this browser out (sign-in-limiter.ts). Stateless: `v1.<issued, s>.<random id>.<HMAC>`, the
 * HMAC over the email, the time and the id under a key derived from the console's secret, so a
 * token is worth nothing for another email, after `maxAgeMs`, or under another secret.
 */
export function createDeviceTokens(secret: string, { maxAgeMs, now = Date.now }: { maxAgeMs: number; now?: () => number }) {
  const key = Buffer.from(hkdfSync("sha256", secret, "adrank-dashboard", "device-cookies", 32));
  const mac = (email: string, issuedS: string, id: string) => createHmac("sha256", key).update(`adrank-device-v1\n${email}\n${issuedS}\n${id}`).digest();

  return {
    /** How long a browser keeps a token, in seconds (the cookie's Max-Age). */
    maxAgeS: Math.floor(maxAgeMs / 1000),

    /** A fresh token for a browser that just proved it knows the email's password. */
    issue(email: string): string {
      const issuedS = String(Math.floor(now() / 1000));
      const id = randomBytes(16).toString("base64url");
      return ["v1", issuedS, id, mac(email, issuedS, id).toString("base64url")].join(".");
    },

    /** The token's id when it is a current token of this email, else null. */
    verify(token: string, email: string): string | null {
      if (token.length > MAX_TOKEN_CHARS) return null;
      const [version, issuedS, id, given, extra] = token.split(".");
      if (version !== "v1" || !issuedS || !id || !given || extra !== undefined || !/^\d{1,12}$/.test(issuedS)) return null;
      const ageMs = now() - Number(issuedS) * 1000;
      if (ageMs < -60_000 || ageMs > maxAgeMs) return null;
      const expected = mac(email, issuedS, id);
      const presented = Buffer.from(given, "base64url");
      return presented.length === expected.length && timingSafeEqual(presented, expected) ? id : null;
    },
  };
}
export type DeviceTokens = ReturnType<typeof createDeviceTokens>;

/** Tokens under a key of this process alone (tests, and a console without a configured secret): they do not survive a restart. */
export const processDeviceTokens = (maxAgeMs: number) => createDeviceTokens(randomBytes(32).toString("hex"), { maxAgeMs });
