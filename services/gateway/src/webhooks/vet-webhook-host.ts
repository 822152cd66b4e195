import { isIP } from "node:net";
import { classifyAddress, lookupHostAddresses, type HostResolver, type ResolvedAddress } from "@adrank/images";

export type HostVetting =
  | { ok: true; host: string; addresses: readonly ResolvedAddress[] }
  | { ok: false; kind: "unresolved"; host: string }
  /** `reason` completes a sentence: "the address 10.0.0.1 is in a private network". */
  | { ok: false; kind: "refused"; host: string; address: string; reason: string; literal: boolean };

export interface VetWebhookHostOptions {
  allowLoopback: boolean;
  /** DNS; the system resolver unless a test injects one. */
  lookup?: HostResolver;
  /** Aborting stops waiting for DNS: the promise rejects with the signal's reason. */
  signal: AbortSignal;
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * Resolves a webhook URL's host and passes its addresses only if EVERY one is public, by the
 * image intake's address rules. One private answer refuses the name even beside public ones:
 * the socket may be handed any of them. Connect to the returned addresses only (pinnedLookup),
 * so a DNS answer that changes after this check (rebinding) is never used.
 */
export async function vetWebhookHost(url: URL, opts: VetWebhookHostOptions): Promise<HostVetting> {
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  const version = isIP(host);
  let addresses: readonly ResolvedAddress[];
  if (version !== 0) {
    addresses = [{ address: host, family: version === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await untilAborted((opts.lookup ?? lookupHostAddresses)(host), opts.signal);
    } catch {
      if (opts.signal.aborted) throw opts.signal.reason;
      return { ok: false, kind: "unresolved", host };
    }
    if (addresses.length === 0) return { ok: false, kind: "unresolved", host };
  }
  for (const { address } of addresses) {
    const verdict = classifyAddress(address, { allowLoopback: opts.allowLoopback });
    if (!verdict.allowed) return { ok: false, kind: "refused", host, address, reason: verdict.reason, literal: version !== 0 };
  }
  return { ok: true, host, addresses };
}
