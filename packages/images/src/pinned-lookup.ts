import type { LookupFunction } from "node:net";
import type { ResolvedAddress } from "./resolve-host.ts";

/**
 * A `lookup` for `https.request` that answers only with addresses we already vetted, so the
 * socket goes exactly where the check looked: a DNS answer that changes between check and
 * connect (rebinding) is never consulted. The request keeps the host name for SNI, the Host
 * header and certificate verification.
 */
export function pinnedLookup(vetted: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const first = vetted[0];
    if (!first) {
      callback(Object.assign(new Error("no vetted address"), { code: "ENOTFOUND" }), "", 4);
      return;
    }
    // Node asks for every address when it races IPv4 and IPv6 (autoSelectFamily).
    if (options.all) callback(null, vetted.map((a) => ({ address: a.address, family: a.family })));
    else callback(null, first.address, first.family);
  };
}
