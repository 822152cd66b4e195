const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * Every console API body but the playground's: forms of a few fields. 64 KiB holds the largest
 * audience the contract allows (a 4,000-character description, 30 extra demographics) in
 * UTF-8, and parsing that much JSON of any shape takes well under a millisecond.
 */
export const DEFAULT_BODY_LIMIT_BYTES = 64 * KiB;

/** The playground forwards images as data URIs to the gateway: as much as the gateway's own default body limit. */
export const DEFAULT_PLAYGROUND_BODY_LIMIT_BYTES = 25 * MiB;

/** "64 KiB", "25 MiB", "1,500 bytes". */
export function formatLimit(bytes: number): string {
  if (bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes % KiB === 0) return `${bytes / KiB} KiB`;
  return `${bytes.toLocaleString("en-US")} bytes`;
}

/** The sentence of a 413. */
export const bodyTooLarge = (limitBytes: number) => `The request body is too large: ${formatLimit(limitBytes)} at most.`;
