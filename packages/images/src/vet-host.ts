import { classifyAddress } from "./classify-address.ts";
import type { CheckedHttpsUrl } from "./https-url-policy.ts";
import { IntakeRefusal } from "./intake-refusal.ts";
import type { HostResolver, ResolvedAddress } from "./resolve-host.ts";
import { untilAborted } from "./until-aborted.ts";

export interface VetHostOptions {
  resolver: HostResolver;
  allowLoopback: boolean;
  signal: AbortSignal;
}

function shown(host: string): string {
  return host.length > 100 ? `${host.slice(0, 100)}…` : host;
}

async function resolve(checked: CheckedHttpsUrl, opts: VetHostOptions): Promise<readonly ResolvedAddress[]> {
  if (checked.ipVersion !== 0) return [{ address: checked.host, family: checked.ipVersion }];
  try {
    return await untilAborted(opts.resolver(checked.host), opts.signal);
  } catch (err) {
    if (opts.signal.aborted) throw opts.signal.reason;
    throw new IntakeRefusal("fetch-failed", `the image host name ${shown(checked.host)} could not be resolved`, { cause: err });
  }
}

/**
 * Resolves the URL's host and returns its addresses only if EVERY one is public (and the port
 * is 443). A name that also answers with a private address is refused even though a public
 * one exists: we cannot tell an attacker's record from a misconfiguration, and any address
 * handed to the socket may be the one it connects to.
 */
export async function vetHost(checked: CheckedHttpsUrl, opts: VetHostOptions): Promise<readonly ResolvedAddress[]> {
  const addresses = await resolve(checked, opts);
  if (addresses.length === 0) {
    throw new IntakeRefusal("fetch-failed", `the image host name ${shown(checked.host)} does not resolve to any address`);
  }
  for (const { address } of addresses) {
    const verdict = classifyAddress(address, { allowLoopback: opts.allowLoopback });
    if (!verdict.allowed) {
      const via = checked.ipVersion !== 0 ? "" : `, and ${shown(checked.host)} resolves to one that is not`;
      throw new IntakeRefusal("address-refused", `images are fetched from public addresses only${via}: ${verdict.reason}`);
    }
  }
  // Port policy: 443 only. Image hosts serve there, and other ports would let callers use us
  // to probe arbitrary services on public hosts. Test servers on loopback (allowed only by the
  // test setting) listen on any port; addresses that pass without that setting are public.
  if (checked.port !== "" && addresses.some(({ address }) => classifyAddress(address).allowed)) {
    throw new IntakeRefusal("unsupported-source", `image URLs must use the default https port 443, not port ${checked.port}`);
  }
  return addresses;
}
