import { createHash } from "node:crypto";

/**
 * The prompt cache of a strict fake, kept the way each provider documents its own:
 * - "automatic" (OpenAI, Gemini, Vertex): every answered prompt is cached by its prefixes; a
 *   later prompt of at least `minimum` tokens reads its longest cached prefix, rounded down to
 *   `granularity` (OpenAI: 128-token steps from 1024 on; developers.openai.com/api/docs/guides/prompt-caching),
 *   and only when that prefix is itself at least `minimum` tokens.
 * - "breakpoints" (Anthropic `cache_control`, Bedrock `cachePoint`): only the prefix up to a
 *   breakpoint is written (when it has at least `minimum` tokens), and read back by a later
 *   prompt whose breakpoint, or a block boundary up to 20 blocks before it, ends the same prefix
 *   (https://platform.claude.com/docs/en/build-with-claude/prompt-caching;
 *   https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html).
 * Every entry lives 5 minutes from its last use, and is readable only once the response of the
 * request that wrote it has been sent ("a cache entry only becomes available after the first
 * response begins": concurrent requests miss).
 *
 * Prompts are compared part by part (a text block, an image), not token by token: two prompts
 * that differ inside a part share none of it here, where the real cache might share a few of its
 * first tokens. The fake therefore never reports more caching than the provider would.
 */

export interface PromptPart {
  kind: "text" | "image";
  tokens: number;
  /** Identifies the content: equal parts have equal digests. */
  digest: string;
  /** A cache breakpoint (cache_control, cachePoint) closes the prefix after this part. */
  breakpoint?: boolean;
}

export interface CacheRules {
  mode: "automatic" | "breakpoints";
  /** The smallest cacheable prefix, in tokens. */
  minimum: number;
  /** Cached tokens are counted in steps of this many (1: exactly). */
  granularity: number;
}

/** How one prompt was counted and served. */
export interface PromptAccount {
  model: string;
  promptTokens: number;
  imageTokens: number;
  /** Read from the cache. */
  cachedTokens: number;
  cachedImageTokens: number;
  /** Written to the cache (breakpoint providers bill these separately). */
  writtenTokens: number;
}

export interface PromptCacheBook {
  /**
   * Counts one valid prompt of `scope` (the credential and the model: caches are never shared
   * across organizations or models), reads what the cache holds, and writes what this prompt
   * caches, readable `answeredInMs` from now (when its response is sent).
   */
  account(scope: string, model: string, parts: readonly PromptPart[], rules: CacheRules, answeredInMs: number): PromptAccount;
  /** Every prompt counted, in order of arrival. */
  readonly accounts: PromptAccount[];
}

export const CACHE_TTL_MS = 5 * 60_000;
/** Anthropic's lookback: a breakpoint also hits an entry ending up to 20 blocks before it. */
const LOOKBACK_BLOCKS = 20;

export const digestOf = (text: string): string => createHash("sha256").update(text).digest("base64url");

export function createPromptCacheBook(now: () => number = Date.now): PromptCacheBook {
  const entries = new Map<string, { availableAt: number; expiresAt: number }>();
  const accounts: PromptAccount[] = [];

  const readable = (key: string, at: number) => {
    const entry = entries.get(key);
    return entry !== undefined && entry.availableAt <= at && entry.expiresAt > at;
  };
  const write = (key: string, availableAt: number) => {
    const seen = entries.get(key);
    // A second writer of the same prefix does not delay the first one's entry.
    entries.set(key, { availableAt: seen && seen.expiresAt > now() ? Math.min(seen.availableAt, availableAt) : availableAt, expiresAt: availableAt + CACHE_TTL_MS });
  };

  return {
    accounts,
    account(scope, model, parts, rules, answeredInMs) {
      const at = now();
      // The prefix key and token count after each part.
      const keys: string[] = [];
      const ends: number[] = [];
      let chain = scope;
      let tokens = 0;
      for (const part of parts) {
        chain = digestOf(`${chain}\u0000${part.kind}:${part.digest}`);
        tokens += part.tokens;
        keys.push(chain);
        ends.push(tokens);
      }
      const promptTokens = tokens;
      let readEnd = 0;
      let writtenEnd = 0;
      if (rules.mode === "automatic") {
        if (promptTokens >= rules.minimum) {
          for (let i = parts.length - 1; i >= 0; i--) {
            if (ends[i]! >= rules.minimum && readable(keys[i]!, at)) {
              readEnd = ends[i]!;
              entries.get(keys[i]!)!.expiresAt = at + CACHE_TTL_MS;
              break;
            }
          }
          readEnd = Math.floor(readEnd / rules.granularity) * rules.granularity;
          if (readEnd < rules.minimum) readEnd = 0;
          // The provider keeps the whole prompt's prefixes: this one is written for the next caller.
          ends.forEach((end, i) => end >= rules.minimum && write(keys[i]!, at + answeredInMs));
        }
      } else {
        const breakpoints = parts.flatMap((p, i) => (p.breakpoint ? [i] : []));
        const last = breakpoints.at(-1);
        if (last !== undefined) {
          for (let i = last; i >= Math.max(0, last - LOOKBACK_BLOCKS); i--) {
            if (ends[i]! >= rules.minimum && readable(keys[i]!, at)) {
              readEnd = ends[i]!;
              entries.get(keys[i]!)!.expiresAt = at + CACHE_TTL_MS;
              break;
            }
          }
          for (const b of breakpoints) {
            if (ends[b]! < rules.minimum || ends[b]! <= readEnd) continue;
            write(keys[b]!, at + answeredInMs);
            writtenEnd = ends[b]!;
          }
        }
      }
      // Which of the image tokens fall inside the cached prefix.
      let imageTokens = 0;
      let cachedImageTokens = 0;
      let start = 0;
      for (const part of parts) {
        if (part.kind === "image") {
          imageTokens += part.tokens;
          cachedImageTokens += Math.max(0, Math.min(start + part.tokens, readEnd) - start);
        }
        start += part.tokens;
      }
      const account: PromptAccount = { model, promptTokens, imageTokens, cachedTokens: readEnd, cachedImageTokens, writtenTokens: writtenEnd > readEnd ? writtenEnd - readEnd : 0 };
      accounts.push(account);
      return account;
    },
  };
}

/** Sums of a list of accounts, and the cached shares the benchmark reports. */
export function cacheShares(accounts: readonly PromptAccount[]) {
  const sum = (f: (a: PromptAccount) => number) => accounts.reduce((n, a) => n + f(a), 0);
  const prompt = sum((a) => a.promptTokens);
  const image = sum((a) => a.imageTokens);
  const cached = sum((a) => a.cachedTokens);
  const cachedImage = sum((a) => a.cachedImageTokens);
  return {
    calls: accounts.length,
    promptTokens: prompt,
    imageTokens: image,
    cachedTokens: cached,
    cachedImageTokens: cachedImage,
    writtenTokens: sum((a) => a.writtenTokens),
    imageShare: image === 0 ? 0 : cachedImage / image,
    inputShare: prompt === 0 ? 0 : cached / prompt,
  };
}
