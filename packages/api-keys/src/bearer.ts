/**
 * Extracts the credential from an `Authorization` header value. Accepts the scheme in any
 * case (RFC 9110 says schemes are case-insensitive) and nothing but one token after it.
 */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^bearer[ ]+([^\s]+)[ ]*$/i.exec(header);
  return m ? m[1]! : null;
}
