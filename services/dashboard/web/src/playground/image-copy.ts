// Ad copy for the playground's images: one shared headline and body, which any image may
// override with its own.

/** A headline and a body as the form holds them; "" is "not given". */
export interface CopyFields {
  headline: string;
  body: string;
}

export const NO_COPY: CopyFields = { headline: "", body: "" };

/** Blank text is no copy: a space typed by mistake should not make an image "with copy". */
const given = (text: string | undefined): text is string => text !== undefined && text.trim() !== "";

/**
 * The `copy_context` one image is sent with: each field its own when given, else the shared
 * one, else left out; null when neither gives any field.
 *
 * @example assetCopyContext({ headline: "30% off", body: "" }, { headline: "New shoes", body: "Shop now." }) // { headline: "30% off", body: "Shop now." }
 */
export function assetCopyContext(own: CopyFields | undefined, shared: CopyFields): { headline?: string; body?: string } | null {
  const headline = given(own?.headline) ? own.headline : given(shared.headline) ? shared.headline : null;
  const body = given(own?.body) ? own.body : given(shared.body) ? shared.body : null;
  if (headline === null && body === null) return null;
  return { ...(headline !== null ? { headline } : {}), ...(body !== null ? { body } : {}) };
}

/** How many of the named images have a headline or body of their own. */
export function ownCopyCount(names: readonly string[], own: Readonly<Record<string, CopyFields>>): number {
  return names.filter((n) => given(own[n]?.headline) || given(own[n]?.body)).length;
}

/** The images' own copy less that of images no longer picked, so a later image of the same name starts blank. */
export function copyOfPicked(names: readonly string[], own: Readonly<Record<string, CopyFields>>): Record<string, CopyFields> {
  return Object.fromEntries(names.flatMap((n) => (own[n] ? [[n, own[n]] as const] : [])));
}
