// Images sent as data URIs come back in a rank response (asset_url is the submitted url) and
// sit in a stored asynchronous request body. Stored as they are, every copy would hold the
// image again. Each data URI is cut out of the JSON text and replaced by a token naming its
// content hash; the image itself is stored once, however many bodies (or requests) hold it.

/** U+0001 never appears raw in JSON text (JSON.stringify escapes it), so a token cannot collide with content; Postgres text accepts it (unlike U+0000). */
const MARK = "\u0001";
/** Only data URIs worth a row of their own are cut out; short ones stay inline. */
export const MIN_STORED_IMAGE_CHARS = 512;
// eslint-disable-next-line no-control-regex -- the mark is a control character on purpose (see MARK)
const TOKEN = /\u0001([^\u0001]+)\u0001/g;
// Base64 data URIs as JSON.stringify writes them: none of these characters is escaped. At most
// 16 parameters: with `*`, millions of `;a` overflowed the pattern's backtracking stack (a
// RangeError for a 15M-character url the contract accepts); a longer one just stays inline.
const DATA_URI = /data:image\/[a-z0-9.+-]+(?:;[a-z0-9=.+-]+){0,16};base64,[A-Za-z0-9+/]+=*/gi;

export interface TokenizedText {
  /** The text with each long data URI replaced by `MARK + name + MARK`. */
  template: string;
  /** Each distinct image once, by the name the template uses. */
  images: Map<string, string>;
}

/** Cuts long data URIs out of `text`; `nameOf` names an image by its content (a hash). */
export function tokenizeImages(text: string, nameOf: (dataUri: string) => string): TokenizedText {
  const images = new Map<string, string>();
  const template = text.replace(DATA_URI, (uri) => {
    if (uri.length < MIN_STORED_IMAGE_CHARS) return uri;
    const name = nameOf(uri);
    images.set(name, uri);
    return `${MARK}${name}${MARK}`;
  });
  return { template, images };
}

/** The names of the images a template refers to. */
export function imageNamesIn(template: string): string[] {
  const names = new Set<string>();
  for (const m of template.matchAll(TOKEN)) names.add(m[1]!);
  return [...names];
}

/** The original text back, byte for byte; throws when an image is missing rather than return a different body. */
export function restoreImages(template: string, images: ReadonlyMap<string, string>): string {
  return template.replace(TOKEN, (_, name: string) => {
    const uri = images.get(name);
    if (uri === undefined) throw new Error(`stored image ${name} is missing`);
    return uri;
  });
}
