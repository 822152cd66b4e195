export const SESSION_COOKIE = "adrank_session";

/** A cookie's value is not valid percent-encoding: the request is the client's fault (400), not ours. */
export class MalformedCookieError extends Error {
  override name = "MalformedCookieError";
  readonly statusCode = 400;
  readonly cookie: string;
  constructor(cookie: string, options?: { cause?: unknown }) {
    super(`The ${cookie} cookie could not be read.`, options);
    this.cookie = cookie;
  }
}
export const isMalformedCookie = (err: unknown): err is MalformedCookieError => err instanceof MalformedCookieError;

/** The value of one cookie from a Cookie header, or null; throws MalformedCookieError on a bad escape. */
export function readCookie(header: string | undefined, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch (err) {
        throw new MalformedCookieError(name, { cause: err });
      }
    }
  }
  return null;
}

/** Every cookie of the console: httpOnly (no script reads it), SameSite=Strict, Secure behind HTTPS. */
function cookie(name: string, value: string, opts: { path: string; maxAgeS: number; secure: boolean }): string {
  return [`${name}=${encodeURIComponent(value)}`, `Path=${opts.path}`, "HttpOnly", "SameSite=Strict", `Max-Age=${opts.maxAgeS}`, ...(opts.secure ? ["Secure"] : [])].join("; ");
}

/** The session cookie, sent with every request. */
export const sessionCookie = (value: string, opts: { maxAgeS: number; secure: boolean }): string => cookie(SESSION_COOKIE, value, { path: "/", ...opts });

/** The known-device cookie (device-token.ts): sent only to sign-in, the one place it is read. */
export const DEVICE_COOKIE = "adrank_device";
export const deviceCookie = (value: string, opts: { maxAgeS: number; secure: boolean }): string => cookie(DEVICE_COOKIE, value, { path: "/console/api/signin", ...opts });
