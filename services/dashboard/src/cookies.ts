export const SESSION_COOKIE = "adrank_session";

/** The value of one cookie from a Cookie header, or null. */
export function readCookie(header: string | undefined, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

/** The session cookie: httpOnly (no script reads it), SameSite=Strict, Secure behind HTTPS. */
export function sessionCookie(value: string, opts: { maxAgeS: number; secure: boolean }): string {
  return [`${SESSION_COOKIE}=${encodeURIComponent(value)}`, "Path=/", "HttpOnly", "SameSite=Strict", `Max-Age=${opts.maxAgeS}`, ...(opts.secure ? ["Secure"] : [])].join("; ");
}
