import { ApiError } from "../api.ts";

// The request fields the playground fills, as its form calls them.
const FIELD_WORDS: Array<[RegExp, string]> = [
  [/\baudience\.name\b/g, "the audience name"],
  [/\baudience_id\b/g, "the saved audience"],
];

/**
 * A failed request as one plain sentence: the API's own sentence, with `assets[2]` turned into
 * the image's name and field paths into the form's words, never a status number first; a hint
 * to wait when the API said how long.
 */
export function plainError(err: unknown, imageNames: readonly string[]): string {
  if (!(err instanceof ApiError)) return "The request could not be sent. Check your connection and try again.";
  let text = err.message.replace(/\bassets\[(\d+)\]((?:\.\w+)*)/g, (whole, i: string, rest: string) => {
    const name = imageNames[Number(i)];
    if (!name) return whole;
    const part = rest.split(".").pop();
    return !part || part === "url" ? `the image ${name}` : `the ${part} of ${name}`;
  });
  for (const [path, words] of FIELD_WORDS) text = text.replace(path, words);
  text = text.replace(/^./, (c) => c.toUpperCase());
  if (err.retryAfter && !/try again/i.test(text)) text += ` Try again in ${err.retryAfter} seconds.`;
  return text;
}
