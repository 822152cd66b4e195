import { z } from "zod";

/**
 * The setting of how many proxies (an ingress, a load balancer, a CDN) stand in front of a
 * service: 0 to 10. The client address is then the entry that many hops from the right of
 * X-Forwarded-For, the one the outermost trusted proxy wrote; anything further left the
 * caller wrote itself. `false` (and empty) still read as 0. `true` is refused: trusting every
 * entry lets a caller pick its own address, and with it a fresh per-address limit.
 *
 * @param service what stands behind the proxies, for the sentence of a refused value ("console").
 */
export const trustProxyHops = (service: string) =>
  z
    .string()
    .default("0")
    .transform((raw, ctx) => {
      const value = raw.trim().toLowerCase();
      if (value === "" || value === "false") return 0;
      if (/^\d+$/.test(value) && Number(value) <= 10) return Number(value);
      ctx.addIssue({
        code: "custom",
        message:
          value === "true"
            ? `is now the number of proxies in front of the ${service}, not a flag: set 1 behind one ingress or load balancer (2 behind a CDN and an ingress), 0 for none; \`true\` trusted every X-Forwarded-For entry, which lets a caller pick its own address`
            : `must be a number of proxy hops from 0 to 10, got "${raw}"`,
      });
      return z.NEVER;
    });

/**
 * Fastify's `trustProxy` for a hop count: the first `hops` addresses from the socket inward
 * are proxies, so request.ip is the entry the outermost of them wrote. (A bare number is not
 * used: fastify 5 then trusts no X-Forwarded-For entry at all.)
 */
export const proxyTrust = (hops: number): false | ((address: string, hop: number) => boolean) => (hops > 0 ? (_address, hop) => hop < hops : false);
