import type { StoredKey } from "@adrank/db/repositories";
export type { StoredKey };
import { bearerToken, lookupOf, verifyKey } from "@adrank/api-keys";
import { TooManyFailedAuthenticationsError, UnauthenticatedError } from "../errors/api-errors.ts";
import type { AuthFailureLimiter } from "./failure-limiter.ts";
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
  /** Failed key checks per client address; an address past its limit is refused before any look-up. */
  failures?: AuthFailureLimiter;
}

/**
 * Turns an Authorization header into the calling account and key, or throws one
 * UnauthenticatedError whatever the reason (missing, malformed, unknown, wrong secret,
 * revoked) so a caller learns nothing about which keys exist. Look-ups are cached briefly,
 * including misses, so neither good nor made-up keys cost a query per request; the secret
 * is still compared with the stored hash, in constant time, on every request.
 *
 * With a failure limiter and the caller's address, a key that is shaped like one of ours but
 * not accepted counts against the address, and an address past its limit gets
 * TooManyFailedAuthenticationsError (429) before its key is looked at. A header that is not
 * a key at all counts nothing: it is refused without any look-up, so it costs nothing to limit.
 */
export function createAuthenticator(opts: AuthenticatorOptions) {
  const cache = createTtlCache<StoredKey | null>({ ttlMs: opts.ttlMs, maxEntries: opts.maxCachedKeys ?? 10_000, now: opts.now });
  // Concurrent first requests with one key share one query.
  const loading = new Map<string, Promise<StoredKey | null>>();

  /** `onQuery` runs when this call, and no other, sends the look-up to the store. */
  const load = async (lookup: string, onQuery?: () => void): Promise<StoredKey | null> => {
    const cached = cache.get(lookup);
    if (cached) return cached.value;
    let pending = loading.get(lookup);
    if (!pending) {
      onQuery?.();
      pending = opts.findByLookup(lookup).finally(() => loading.delete(lookup));
      loading.set(lookup, pending);
      const stored = await pending;
      cache.set(lookup, stored);
      return stored;
    }
    return pending;
  };

  /** The failure count of one caller's address; without an address or a limiter, one that counts nothing. */
  const tallyOf = (address: string | undefined) => {
    const limiter = opts.failures;
    if (address === undefined || !limiter) return { refusal: () => null, fail: () => {}, forgive: () => {} };
    return { refusal: () => limiter.refusal(address), fail: () => limiter.recordFailure(address), forgive: () => limiter.forgive(address) };
  };

  return {
    /** `clientAddress` is what the failure limit counts (addressKey); without one nothing is counted. */
    async authenticate(authorization: string | undefined, clientAddress?: string): Promise<Caller> {
      const tally = tallyOf(clientAddress);
      const refusal = tally.refusal();
      if (refusal) throw new TooManyFailedAuthenticationsError(refusal);
      const presented = bearerToken(authorization);
      const lookup = presented ? lookupOf(presented) : null;
      if (!presented || !lookup) throw new UnauthenticatedError();
      // A look-up sent to the store counts as a failure while it runs, so a burst of made-up
      // keys cannot all pass the check above before the first one fails; it is forgiven if
      // the key is accepted or the store did not answer.
      let countedAhead = false;
      let stored: StoredKey | null;
      try {
        stored = await load(lookup, () => {
          countedAhead = true;
          tally.fail();
        });
      } catch (err) {
        if (countedAhead) tally.forgive();
        throw err;
      }
      if (!stored || stored.revoked || !verifyKey(presented, stored.hash)) {
        if (!countedAhead) tally.fail();
        throw new UnauthenticatedError();
      }
      if (countedAhead) tally.forgive();
      const caller = { accountId: stored.accountId, keyId: stored.id };
      opts.onAuthenticated?.(caller);
      return caller;
    },
  };
}
export type Authenticator = ReturnType<typeof createAuthenticator>;
