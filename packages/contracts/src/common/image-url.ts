import { z } from "zod";
import { LIMITS } from "../vocabulary.ts";

export const IMAGE_URL_RULE = "must be an https:// URL or a data:image/ URI";

/** True for the two forms the spec accepts; fetching and decoding are checked at intake. */
export function isAcceptedImageUrl(value: string): boolean {
  if (/^data:image\//i.test(value)) return true;
  if (!/^https:\/\//i.test(value)) return false;
  try {
    return new URL(value).protocol === "https:";
  } catch {
    return false;
  }
}

export const ImageUrl = z
  .string()
  .max(LIMITS.urlMaxChars, { abort: true })
  // The 15 MB allowance is for data URIs; an address that long is an attack, not an image.
  // Checked first, and the end of the checks when it fails: a URL of 15M "@" takes seconds to parse.
  .refine((v) => !/^https:/i.test(v) || v.length <= LIMITS.httpsUrlMaxChars, { message: `must be at most ${LIMITS.httpsUrlMaxChars} characters long when it is an https:// URL`, abort: true })
  .refine(isAcceptedImageUrl, { message: IMAGE_URL_RULE })
  .meta({ description: "An `https://` image URL or a `data:image/` URI (png, jpeg, webp or gif)." });
