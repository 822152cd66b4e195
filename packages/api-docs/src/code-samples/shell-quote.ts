/**
 * A word the shell passes on unchanged: bare when it is made of safe characters, else in
 * single quotes (a quote inside becomes '\'').
 *
 * @example shellQuote("Weekend trail runners") // "'Weekend trail runners'"
 */
export function shellQuote(word: string): string {
  if (/^[\w./:@%+=,-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
