import type { CopyFields } from "../types.ts";
import type { ImageStats } from "./image-stats.ts";

/**
 * What in a creative an audience's persona fields react to (persona-rules.ts): price offers,
 * sweeping claims and scarcity in the copy, and how busy the image's layout is. The copy
 * detectors tokenize once and match short phrases token by token, so they run in linear time
 * on copy of any length, ignore case, and only match whole words ("bestow" is not "best").
 */

export interface CopyCues {
  /** Discount cues found, each named once, in order of appearance ("per cent off", "free shipping"). */
  discount: string[];
  /** Prices stated as amounts ("$19", "19.99"): a price shown, though not necessarily a bargain. */
  price: string[];
  /** Sweeping claims found ("best", "#1", "guaranteed"). */
  claims: string[];
  /** Scarcity or deadline cues found ("limited", "ends today"). */
  scarcity: string[];
}

export interface CreativeCues extends CopyCues {
  /** How busy the layout is, 0 (not at all) … 1 (fully), from `layoutBusyness`; null without an image. */
  busyness: number | null;
  /** The image has a visible subject and few edges besides: a clean layout. False without an image. */
  clean: boolean;
}

interface Token {
  kind: "word" | "number" | "symbol" | "break";
  text: string;
}

/** One token of a phrase: a literal (lower case) or a test. */
type Pattern = string | ((t: Token) => boolean);

interface Phrase {
  label: string;
  patterns: Pattern[];
}

const CURRENCY_SYMBOLS = new Set(["$", "€", "£", "¥", "₹"]);
const CURRENCY_CODES = new Set(["usd", "eur", "gbp", "chf", "cad", "aud"]);
const SYMBOLS = new Set([...CURRENCY_SYMBOLS, "%", "#"]);
/** Sentence and list ends: a phrase never spans one ("Ends. Today" is not "ends today"). */
const BREAKS = new Set([".", "!", "?", ";", ":", "\n", "|", "•"]);

const number: Pattern = (t) => t.kind === "number";
const currency: Pattern = (t) => t.kind === "symbol" && CURRENCY_SYMBOLS.has(t.text);
const currencyCode: Pattern = (t) => t.kind === "word" && CURRENCY_CODES.has(t.text);
/** A price written with cents, "19.99" or "4,50": a rating like "4.8" has one decimal. */
const centsAmount: Pattern = (t) => t.kind === "number" && /^\d+[.,]\d\d$/.test(t.text);
const anyWord: Pattern = (t) => t.kind === "word";
const hundred: Pattern = (t) => t.kind === "number" && t.text === "100";
const one: Pattern = (t) => t.kind === "number" && t.text === "1";
const oneOf = (...words: string[]): Pattern => {
  const set = new Set(words);
  return (t) => t.kind === "word" && set.has(t.text);
};

const words = (...list: string[]): Phrase[] => list.map((w) => ({ label: w, patterns: w.split(" ") }));

const PRICE: Phrase[] = [
  { label: "currency amount", patterns: [currency, number] },
  { label: "currency amount", patterns: [number, currency] },
  { label: "currency amount", patterns: [currencyCode, number] },
  { label: "currency amount", patterns: [number, currencyCode] },
  { label: "currency amount", patterns: [centsAmount] },
];

const DISCOUNT: Phrase[] = [
  { label: "per cent off", patterns: ["%", "off"] },
  { label: "per cent off", patterns: ["percent", "off"] },
  { label: "per cent off", patterns: ["per", "cent", "off"] },
  { label: "two for one", patterns: ["2", "for", "1"] },
  ...words("sale", "discount", "discounts", "discounted", "save", "saves", "savings", "deal", "deals", "coupon", "coupons", "voucher", "vouchers", "clearance", "bargain", "bogo"),
  ...words("free shipping", "free delivery", "free returns", "free postage", "half price", "half off", "buy one get one", "two for one", "promo code", "price drop", "price cut"),
];

const CLAIMS: Phrase[] = [
  { label: "#1", patterns: ["#", one] },
  { label: "100%", patterns: [hundred, "%"] },
  { label: "100%", patterns: [hundred, "percent"] },
  ...words("best", "greatest", "guaranteed", "proven", "miracle", "miraculous", "revolutionary", "world's", "ultimate", "unbeatable", "unrivalled", "unrivaled", "unmatched", "instantly", "clinically", "breakthrough"),
  ...words("number one", "never again", "world class", "risk free", "life changing"),
];

const DAYS = oneOf("today", "tonight", "tomorrow", "soon", "midnight", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday");

const SCARCITY: Phrase[] = [
  { label: "only N left", patterns: ["only", number, "left"] },
  { label: "only N left", patterns: ["only", number, anyWord, "left"] },
  { label: "ends soon", patterns: ["ends", DAYS] },
  { label: "ends soon", patterns: ["ending", DAYS] },
  ...words("limited", "hurry", "few left", "last chance", "today only", "tonight only", "while stocks last", "while supplies last", "don't miss", "do not miss", "final hours", "final day", "last day", "selling fast", "almost gone", "act now"),
];

const isAsciiLetter = (c: string) => (c >= "a" && c <= "z") || (c >= "A" && c <= "Z");
const isDigit = (c: string) => c >= "0" && c <= "9";
const OTHER_LETTER = /\p{L}|\p{M}/u;
const isLetter = (c: string) => isAsciiLetter(c) || (c > "\u007f" && OTHER_LETTER.test(c));
const isApostrophe = (c: string) => c === "'" || c === "’";

/**
 * Words (letters and digits, with inner apostrophes: "world's", "don't"), numbers (digits with
 * inner separators: "19.99", "1,200"), currency, per cent and hash signs, and sentence breaks.
 * Everything else separates tokens. One pass over the text.
 */
export function copyTokens(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (isLetter(c) || isDigit(c)) {
      const start = i;
      let allDigits = isDigit(c);
      i++;
      while (i < text.length) {
        const d = text[i]!;
        const next = text[i + 1] ?? "";
        if (isLetter(d) || isDigit(d)) {
          allDigits &&= isDigit(d);
        } else if ((d === "." || d === ",") && isDigit(text[i - 1]!) && isDigit(next)) {
          // A decimal or thousands separator inside a number.
        } else if (isApostrophe(d) && isLetter(text[i - 1]!) && isLetter(next)) {
          // An apostrophe inside a word.
        } else break;
        i++;
      }
      const raw = text.slice(start, i).toLowerCase().replace(/’/g, "'");
      tokens.push({ kind: allDigits ? "number" : "word", text: raw });
    } else if (SYMBOLS.has(c)) {
      tokens.push({ kind: "symbol", text: c });
      i++;
    } else {
      if (BREAKS.has(c) && tokens.at(-1)?.kind !== "break") tokens.push({ kind: "break", text: c });
      i++;
    }
  }
  return tokens;
}

const matches = (pattern: Pattern, token: Token | undefined) => token !== undefined && (typeof pattern === "string" ? token.kind !== "break" && token.text === pattern : pattern(token));

/** A phrase list indexed by its literal first token; phrases that start with a test are tried everywhere. */
function phraseIndex(phrases: Phrase[]): { byFirst: Map<string, Phrase[]>; tested: Phrase[] } {
  const byFirst = new Map<string, Phrase[]>();
  const tested: Phrase[] = [];
  for (const phrase of phrases) {
    const first = phrase.patterns[0]!;
    if (typeof first === "string") byFirst.set(first, [...(byFirst.get(first) ?? []), phrase]);
    else tested.push(phrase);
  }
  return { byFirst, tested };
}

const INDEXES = { discount: phraseIndex(DISCOUNT), price: phraseIndex(PRICE), claims: phraseIndex(CLAIMS), scarcity: phraseIndex(SCARCITY) };

/** Labels of the phrases found in the tokens, each once, in order of first appearance. */
function findPhrases(tokens: Token[], index: ReturnType<typeof phraseIndex>): string[] {
  const found = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    const candidates = [...(index.byFirst.get(tokens[i]!.text) ?? []), ...index.tested];
    for (const phrase of candidates) {
      if (phrase.patterns.every((p, j) => matches(p, tokens[i + j]))) found.add(phrase.label);
    }
  }
  return [...found];
}

/**
 * The discount, price, claim and scarcity cues in an ad's copy. The page name is left out: it is the
 * advertiser's name ("Best Buy"), not something the ad claims.
 */
export function copyCues(copy: CopyFields | null): CopyCues {
  const fields = Object.entries(copy ?? {}).filter(([key]) => key !== "pageName");
  // Each field is read on its own, so no phrase runs from a headline into the body.
  const perField = fields.map(([, value]) => copyTokens(value));
  const collect = (index: ReturnType<typeof phraseIndex>) => [...new Set(perField.flatMap((tokens) => findPhrases(tokens, index)))];
  return { discount: collect(INDEXES.discount), price: collect(INDEXES.price), claims: collect(INDEXES.claims), scarcity: collect(INDEXES.scarcity) };
}

/** Edge density at which a layout starts to count as busy, and the span over which it becomes fully busy. */
export const BUSY_FROM = 0.08;
export const BUSY_SPAN = 0.12;
/** Edge density up to which a layout with a visible subject (at least CLEAN_MIN) counts as clean. */
export const CLEAN_MAX = 0.05;
export const CLEAN_MIN = 0.01;

/**
 * How busy a layout looks, 0..1: clamp((edgeDensity − 0.08) / 0.12), so 0 up to 8 % edge
 * pixels and 1 from 20 %. It starts below the composition penalty (12 %) on purpose: an
 * ad-weary audience tires of clutter before the layout counts as poor in general.
 */
export function layoutBusyness(edgeDensity: number): number {
  return Math.min(1, Math.max(0, (edgeDensity - BUSY_FROM) / BUSY_SPAN));
}

export function creativeCues(image: ImageStats | null, copy: CopyFields | null): CreativeCues {
  const edges = image?.edgeDensity ?? null;
  return {
    ...copyCues(copy),
    busyness: edges === null ? null : layoutBusyness(edges),
    clean: edges !== null && edges >= CLEAN_MIN && edges <= CLEAN_MAX,
  };
}
