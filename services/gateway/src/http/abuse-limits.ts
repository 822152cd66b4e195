import type { AuthFailureLimits } from "../auth/failure-limiter.ts";
import type { JsonShapeLimits } from "./json-shape.ts";

/**
 * Defaults of the limits on what a caller can cost before it is known to be a customer, and
 * on the JSON any caller sends. config.ts reads them; route tests may leave the settings out.
 */
export const ABUSE_LIMIT_DEFAULTS = {
  /** Failed key checks per client address and window before 429. */
  authFailureLimit: 20,
  authFailureWindowSeconds: 60,
  /** About 150 bytes each (an IPv6 /64 as text, its window, the map): 100,000 are about 15 MiB. */
  authFailureTrackedAddresses: 100_000,
  unauthenticatedBodyLimitBytes: 16 * 1024,
  /** The API's own bodies nest 4 deep. */
  jsonMaxDepth: 32,
  /**
   * The largest body the API accepts (500 outcomes) holds about 3,000; one far past what the
   * schema allows (100,000 assets: 200,000) still reaches it for its 422 naming the field.
   * At the limit, JSON.parse builds about 16 MiB in about 0.1 s.
   */
  jsonMaxItems: 250_000,
} as const;

export type AbuseSetting =
  | "GATEWAY_TRUST_PROXY"
  | "AUTH_FAILURE_LIMIT_PER_ADDRESS"
  | "AUTH_FAILURE_WINDOW_SECONDS"
  | "AUTH_FAILURE_TRACKED_ADDRESSES"
  | "UNAUTHENTICATED_BODY_LIMIT_BYTES"
  | "JSON_MAX_DEPTH"
  | "JSON_MAX_ITEMS";

export interface AbuseLimits {
  trustProxyHops: number;
  authFailures: AuthFailureLimits;
  unauthenticatedBodyLimitBytes: number;
  jsonShape: JsonShapeLimits;
}

export function abuseLimitsOf(c: Partial<Record<AbuseSetting, number>>): AbuseLimits {
  const d = ABUSE_LIMIT_DEFAULTS;
  return {
    trustProxyHops: c.GATEWAY_TRUST_PROXY ?? 0,
    authFailures: {
      limit: c.AUTH_FAILURE_LIMIT_PER_ADDRESS ?? d.authFailureLimit,
      windowMs: (c.AUTH_FAILURE_WINDOW_SECONDS ?? d.authFailureWindowSeconds) * 1000,
      maxAddresses: c.AUTH_FAILURE_TRACKED_ADDRESSES ?? d.authFailureTrackedAddresses,
    },
    unauthenticatedBodyLimitBytes: c.UNAUTHENTICATED_BODY_LIMIT_BYTES ?? d.unauthenticatedBodyLimitBytes,
    jsonShape: { maxDepth: c.JSON_MAX_DEPTH ?? d.jsonMaxDepth, maxItems: c.JSON_MAX_ITEMS ?? d.jsonMaxItems },
  };
}
