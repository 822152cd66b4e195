/** Why a local image cannot be sent: the file is not there, too big, or not an image at all. */
export type ImageErrorKind = "unreadable" | "too-large" | "not-an-image";

/**
 * A local image the API would refuse, caught before any upload. Not an `AdRankError`: no
 * request was made, so there is no status or request id. `message` names the file.
 */
export class ImageError extends Error {
  override name = "ImageError";
  readonly kind: ImageErrorKind;
  /** The file's path; null for bytes given to `imageBytesToDataUri`. */
  readonly path: string | null;
  /** The image's size in bytes, when it was known. */
  readonly size: number | null;

  constructor(message: string, details: { kind: ImageErrorKind; path: string | null; size?: number | null }, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = details.kind;
    this.path = details.path;
    this.size = details.size ?? null;
  }
}
