import type { ImageInput } from "../types.ts";

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

/**
 * Every provider gets the images in prompt order, each preceded by "Image N:" when there
 * are several, so a vote prompt can refer to "Image 1" and "Image 2" unambiguously.
 */
export function labelledImages(images: ImageInput[]): Array<{ label: string | null; image: ImageInput }> {
  return images.map((image, i) => ({ label: images.length > 1 ? `Image ${i + 1}:` : null, image }));
}
