import type { StoredKey } from "@adrank/db/repositories";
export type { StoredKey };
import { bearerToken, lookupOf, verifyKey } from "@adrank/api-keys";
import { UnauthenticatedError } from "../errors/api-errors.ts";
import { createTtlCache } from "./ttl-cache.ts";

/** What the key store knows of one key; the raw key is never stored. */

export interface Caller {
  accountId: string;
  keyId: string;
}

export interface AuthenticatorOptions {
  /** Loads a key by its non-secret look-up handle; null when there is none. */
  findByLookup(lookup: string): Promise<StoredKey | null>;
  /** How long a look-up result (found, missing or revoked) is trusted: the revocation delay. */
  ttlMs: number;
  now: () => number;
  /** Called after every successful authentication (throttled `last_used_at`). */
  onAuthenticated?(caller: Caller): void;
  maxCachedKeys?: number;
}

/**
 * Turns an Authorization header into the calling account and key, or throws one
 * UnauthenticatedError whatever the reason (missing, malformed, unknown, wrong secret,
 * revoked) so a caller learns nothing about which keys exist. Look-ups are cached briefly,
 * including misses, so neither good nor made-up keys cost a query per request; the secret
 * is still compared with the stored hash, in constant time, on every request.
 */
export function createAuthenticator(opts: AuthenticatorOptions) {
  const cache = createTtlCache<StoredKey | null>({ ttlMs: opts.ttlMs, maxEntries: opts.maxCachedKeys ?? 10_000, now: opts.now });
  // Concurrent first requests with one key share one query.
  const loading = new Map<string, Promise<StoredKey | null>>();

  const load = async (lookup: string): Promise<StoredKey | null> => {
    const cached = cache.get(lookup);
    if (cached) return cached.value;
    let pending = loading.get(lookup);
    if (!pending) {
      pending = opts.findByLookup(lookup).finally(() => loading.delete(lookup));
      loading.set(lookup, pending);
      const stored = await pending;
      cache.set(lookup, stored);
      return stored;
    }
    return pending;
  };

  return {
    async authenticate(authorization: string | undefined): Promise<Caller> {
      const presented = bearerToken(authorization);
      const lookup = presented ? lookupOf(presented) : null;
      if (!presented || !lookup) throw new UnauthenticatedError();
      const stored = await load(lookup);
      if (!stored || stored.revoked || !verifyKey(presented, stored.hash)) throw new UnauthenticatedError();
      const caller = { accountId: stored.accountId, keyId: stored.id };
      opts.onAuthenticated?.(caller);
      return caller;
    },
  };
}
export type Authenticator = ReturnType<typeof createAuthenticator>;
