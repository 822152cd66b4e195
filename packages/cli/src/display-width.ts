// File and audience names are user text: a CJK name takes two terminal columns per character,
// an accent mark none, so padding by .length would shift every column after it.

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

// East Asian Wide and Fullwidth blocks (Hangul, CJK, kana, fullwidth forms, CJK extensions).
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]/u;
const EMOJI = /\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F/u;
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}]+$/u;

/** The columns one grapheme takes on a terminal: 0, 1 or 2. */
function graphemeWidth(g: string): number {
  if (ZERO_WIDTH.test(g)) return 0;
  return WIDE.test(g) || EMOJI.test(g) ? 2 : 1;
}

/**
 * The columns a string takes on a terminal.
 *
 * @example
 * displayWidth("ab"); // 2
 * displayWidth("広告.png"); // 8
 */
export function displayWidth(text: string): number {
  let width = 0;
  for (const { segment } of graphemes.segment(text)) width += graphemeWidth(segment);
  return width;
}

/** The text padded with spaces to `width` columns (never cut). */
export const padEnd = (text: string, width: number): string => text + " ".repeat(Math.max(0, width - displayWidth(text)));

/**
 * The text cut to at most `width` columns, ending in "…" when cut; never splits a character.
 *
 * @example
 * truncate("Bargain hunters", 8); // "Bargain…"
 */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = "";
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const w = graphemeWidth(segment);
    if (used + w > width - 1) break;
    out += segment;
    used += w;
  }
  return `${out}…`;
}

/**
 * `text` broken at spaces into lines of at most `width` terminal columns, the first starting
 * with `first` and the rest with `rest` (a hanging indent). A word longer than a line stays
 * whole on a line of its own: it is never cut.
 *
 * @example
 * wrapWords("a b c", 5, "  ", "    "); // ["  a b", "    c"]
 */
export function wrapWords(text: string, width: number, first: string, rest: string): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(" ")) {
    if (word === "") continue;
    if (!empty && displayWidth(line) + 1 + displayWidth(word) > width) {
      lines.push(line);
      line = rest;
      empty = true;
    }
    line += (empty ? "" : " ") + word;
    empty = false;
  }
  lines.push(line);
  return lines;
}
