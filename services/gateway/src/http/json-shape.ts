/** How far a JSON body may nest and how many values it may hold, checked before it is parsed. */
export interface JsonShapeLimits {
  /** Arrays and objects inside each other. The API's own bodies nest at most 4 deep. */
  maxDepth: number;
  /** Array elements and object members in all (an empty array or object counts as one). */
  maxItems: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Why a JSON body's shape is refused, or null. JSON.parse builds every array and object
 * before anything can look at them: 25 MiB of `[` became 1.2 GiB and 10 s of a blocked
 * event loop, and 25 MiB of `{},` 8.7 million objects. This pass reads the bytes once,
 * allocating nothing, and stops at the first level or item past the limit. Long strings (a
 * data-URI image) are skipped natively (closingQuote), and every byte is looked at a
 * bounded number of times, so the time is linear in the length whatever the bytes. UTF-8
 * never puts these ASCII bytes inside a multi-byte character. Syntax is not checked:
 * JSON.parse refuses what is not JSON, and stops where an unbalanced bracket shows it.
 */
export function jsonShapeProblem(body: Buffer, limits: JsonShapeLimits): string | null {
  let depth = 0;
  let items = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === QUOTE) {
      i = closingQuote(body, i);
      if (i < 0) return null; // an unterminated string: JSON.parse refuses it
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > limits.maxDepth) return `The request body nests arrays and objects more than ${limits.maxDepth} levels deep, the most this API accepts.`;
      if (++items > limits.maxItems) return tooMany(limits.maxItems);
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      // A close without an open: JSON.parse stops here, having built no more than was counted.
      if (--depth < 0) return null;
    } else if (c === COMMA) {
      if (++items > limits.maxItems) return tooMany(limits.maxItems);
    }
  }
  return null;
}

const tooMany = (max: number) => `The request body holds more than ${max.toLocaleString("en-US")} array elements and object members, the most this API accepts.`;

/** Bytes of a string read one by one before the rest is searched natively. */
const STRETCH = 256;

/**
 * Index of the quote that closes the string opening at `open`, or -1. A short stretch is read
 * byte by byte (an escape skips the byte after it); a string longer than that (a data-URI
 * image) is searched with indexOf, whose call costs more than a short loop, so it is made at
 * most once per stretch. Backslashes before a quote it finds are counted back only to where
 * the search began, a point no escape straddles.
 */
function closingQuote(body: Buffer, open: number): number {
  let i = open + 1;
  for (;;) {
    const stop = Math.min(body.length, i + STRETCH);
    for (; i < stop; i++) {
      const c = body[i];
      if (c === QUOTE) return i;
      if (c === BACKSLASH) i++;
    }
    if (i >= body.length) return -1;
    const quote = body.indexOf(QUOTE, i);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (quote - 1 - backslashes >= i && body[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    i = quote + 1;
  }
}
