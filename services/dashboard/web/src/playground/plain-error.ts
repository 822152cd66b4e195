import { ApiError } from "../api.ts";
import { readableField } from "../audiences/field-names.ts";

// The request fields the playground fills, as its form calls them.
const FIELD_WORDS: Array<[RegExp, string]> = [
  [/\baudience\.name\b/g, "the audience name"],
  [/\baudience_id\b/g, "the saved audience"],
];

/** A part of one audience of a ranking across audiences, as the form calls it. */
function audiencePartWords(rest: string): string {
  const parts = rest.split(".").filter(Boolean);
  if (parts[0] === "demographics" && parts[1]) return readableField(parts[1]).toLowerCase();
  if (parts[0] === "audience_id") return "saved audience";
  return parts.join(" ");
}

/**
 * A failed request as one plain sentence: the API's own sentence, with `assets[2]` turned into
 * the image's name, `audiences[1].name` into "the name of audience 2" (counted as the form
 * counts them) and other field paths into the form's words, never a status number first; a hint
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
  text = text.replace(/\baudiences\[(\d+)\]((?:\.\w+)*)/g, (_whole, i: string, rest: string) => {
    const audience = `audience ${Number(i) + 1}`;
    return rest ? `the ${audiencePartWords(rest)} of ${audience}` : audience;
  });
  for (const [path, words] of FIELD_WORDS) text = text.replace(path, words);
  text = text.replace(/^./, (c) => c.toUpperCase());
  if (err.retryAfter && !/try again/i.test(text)) text += ` Try again in ${err.retryAfter} seconds.`;
  return text;
}
