/**
 * True for this machine's own names: `localhost` (and `*.localhost`, RFC 6761), 127.0.0.0/8
 * and ::1. Traffic to them never leaves the machine, so plain http:// there exposes nothing.
 * Takes a WHATWG URL's `hostname`, which writes every IPv4 form (`127.1`, `0x7f.0.0.1`) as
 * four decimals and IPv6 in brackets, so the checks below see one spelling. No node: import:
 * the client also runs in edge runtimes.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (host === "[::1]") return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Why the API key must not go to `url`, or null when it may: the key is a bearer credential,
 * and over plain http:// anyone on the path (a café's Wi-Fi, a proxy, a compromised router)
 * reads it and spends the account's credits. https:// anywhere and http:// to this machine
 * are fine; `allowInsecureHttp` is the owner's explicit choice for a network they trust.
 */
export function cleartextKeyProblem(url: URL, allowInsecureHttp = false): string | null {
  if (url.protocol !== "http:" || allowInsecureHttp || isLoopbackHost(url.hostname)) return null;
  return `refusing to send the API key in clear text to ${url.origin}: use https://, or http:// only to this machine (localhost, 127.0.0.1, ::1)`;
}
