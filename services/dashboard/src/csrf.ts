import { timingSafeEqual } from "node:crypto";

/**
 * A state-changing request is accepted only when it carries the session's CSRF token in the
 * `x-csrf-token` header (a cross-site form cannot set headers, and cannot read the token) and,
 * when the browser sends an Origin, it is the console's own. SameSite=Strict cookies are the
 * first line; this is the second.
 */
export function csrfProblem(input: { method: string; sessionToken: string | null; headerToken: string | undefined; origin: string | undefined; host: string | undefined }): string | null {
  if (["GET", "HEAD", "OPTIONS"].includes(input.method)) return null;
  if (input.origin !== undefined && input.host !== undefined) {
    let originHost: string;
    try {
      originHost = new URL(input.origin).host;
    } catch {
      return "The request's origin is not valid.";
    }
    if (originHost !== input.host) return "The request came from another site.";
  }
  // No session, nothing to forge. Sign-in and sign-up still pass the Origin check above and take
  // only a JSON object, which a cross-site form cannot send; their limits (sign-in-limiter.ts,
  // sign-up-limiter.ts) are against guessing and farming, not against forgery.
  if (!input.sessionToken) return null;
  const given = Buffer.from(input.headerToken ?? "");
  const expected = Buffer.from(input.sessionToken);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "The form expired or came from another page; reload and try again.";
  return null;
}
