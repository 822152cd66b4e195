import { createHash, timingSafeEqual } from "node:crypto";

/** Every key starts with this (spec, Authentication 2). */
export const KEY_PREFIX = "agk_live_";
const LOOKUP_CHARS = 12;
const SECRET_BYTES = 32;
const KEY_PATTERN = /^agk_live_([A-Za-z0-9_-]{12})([A-Za-z0-9_-]{43})$/;

export interface IssuedKey {
  /** The raw key: shown to its owner once, never stored. */
  raw: string;
  /** Non-secret look-up handle stored in clear: `agk_live_` plus 12 random characters. */
  lookup: string;
  /** sha256 of the raw key, hex. */
  hash: string;
  lastFour: string;
}

/**
 * Builds a key from random bytes the caller supplies (`crypto.randomBytes(41)` in
 * production): 9 bytes become the 12-character look-up handle, 32 bytes the secret. The
 * handle lets us find the row without scanning; the secret alone carries 256 bits.
 */
export function issueKey(random: Uint8Array): IssuedKey {
  if (random.length < 9 + SECRET_BYTES) throw new Error(`issueKey needs ${9 + SECRET_BYTES} random bytes`);
  const handle = Buffer.from(random.subarray(0, 9)).toString("base64url");
  const secret = Buffer.from(random.subarray(9, 9 + SECRET_BYTES)).toString("base64url");
  const raw = `${KEY_PREFIX}${handle}${secret}`;
  return { raw, lookup: `${KEY_PREFIX}${handle}`, hash: hashKey(raw), lastFour: raw.slice(-4) };
}

/** The look-up handle of a presented key, or null when it is not shaped like one of ours. */
export function lookupOf(presented: string): string | null {
  const m = KEY_PATTERN.exec(presented);
  return m ? `${KEY_PREFIX}${m[1]}` : null;
}

/**
 * Keys are 256-bit random secrets, so a fast hash is enough: there is nothing to brute-force
 * that a slow hash would protect.
 */
export function hashKey(raw: string): string {
  return createHash("sha256").update(raw, "utf8").digest("hex");
}

/** Compares the presented key with a stored hash in constant time. */
export function verifyKey(presented: string, storedHash: string): boolean {
  const a = Buffer.from(hashKey(presented), "hex");
  const b = Buffer.from(storedHash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}

export const LOOKUP_LENGTH = KEY_PREFIX.length + LOOKUP_CHARS;
