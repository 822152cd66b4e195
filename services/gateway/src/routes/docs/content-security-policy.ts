/**
 * The docs page's policy: everything from this origin, nothing from anywhere else.
 *
 * - script-src 'self': the page has no inline script; Scalar's bundle is served from this
 *   server and reads its configuration from a data attribute.
 * - style-src 'unsafe-inline': the one relaxation. Scalar injects its stylesheet as a
 *   <style> element at runtime and renders inline style="" attributes, which a nonce or a
 *   hash cannot allow. Styles run no code, and anything they could fetch (images, fonts)
 *   is still held to this origin by the rules below.
 * - connect-src 'self': the document (/docs/json) and "Test request" go to this origin only,
 *   so the page cannot reach a proxy, a font server or telemetry even if configured to.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");
