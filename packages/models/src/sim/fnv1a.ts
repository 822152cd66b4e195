const FNV_OFFSET_BASIS = 0x811c9dc5;

/**
 * 32-bit FNV-1a over the UTF-16 code units of `text`: stable across runs and platforms.
 * `from` continues the hash of a prefix, so `fnv1a32(b, fnv1a32(a)) === fnv1a32(a + b)`
 * without building the joined string.
 */
export function fnv1a32(text: string, from = FNV_OFFSET_BASIS): number {
  let h = from;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A deterministic draw in [0, 1) keyed by `text`; the sim's only source of variation. */
export function unitHash(text: string): number {
  // One extra avalanche round: FNV's low bits alone vary too little between similar keys.
  let h = fnv1a32(text);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 2 ** 32;
}
