import { createHash } from "node:crypto";

/**
 * The first 16 hex digits (64 bits) of a text's SHA-256: enough to tell versions of a
 * template or a reference set apart on a receipt, short enough to read there.
 */
export function shortSha256(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}
