import type { IncomingHttpHeaders } from "node:http";

/**
 * The body a request says it carries, from its headers alone: its Content-Length, or
 * "chunked" when it is sent in chunks of unknown total (Node refuses a request that has
 * both), or 0 without a body.
 */
export function declaredBody(headers: IncomingHttpHeaders): number | "chunked" {
  if (headers["transfer-encoding"] !== undefined) return "chunked";
  const length = Number(headers["content-length"] ?? 0);
  return Number.isFinite(length) ? length : 0;
}
