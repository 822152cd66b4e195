import { open } from "node:fs/promises";
import { basename } from "node:path";
import { ImageError, imageFileToDataUri, MAX_IMAGE_BYTES } from "@adrank/sdk";
import { UsageError } from "./usage-error.ts";

// The SDK reads, sizes and sniffs the file; the CLI keeps its own short sentences.
export { MAX_IMAGE_BYTES, sniffImageType } from "@adrank/sdk";

// Enough bytes to tell the four image types apart (WebP needs 12).
const SNIFF_BYTES = 16;

/** The first bytes of a file, to sniff its type without reading a large file whole. */
export async function firstBytes(path: string): Promise<Uint8Array> {
  const file = await open(path, "r");
  try {
    const { buffer, bytesRead } = await file.read(new Uint8Array(SNIFF_BYTES), 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

export interface ImageFile {
  path: string;
  name: string;
  dataUri: string;
}

/** Reads a local image as a data URI, refusing what the API would refuse with a clear sentence. */
export async function readImageFile(path: string): Promise<ImageFile> {
  try {
    return { path, name: basename(path), dataUri: await imageFileToDataUri(path) };
  } catch (err) {
    if (!(err instanceof ImageError)) throw err;
    throw new UsageError(usageSentence(path, err));
  }
}

function usageSentence(path: string, err: ImageError): string {
  switch (err.kind) {
    case "unreadable":
      return `${path}: no such file`;
    case "too-large":
      return `${path}: ${((err.size ?? MAX_IMAGE_BYTES) / 1048576).toFixed(1)} MiB is more than the 10 MiB an image may have`;
    case "not-an-image":
      return `${path}: not a PNG, JPEG, WebP or GIF image`;
    default: {
      const unknownKind: never = err.kind;
      return unknownKind;
    }
  }
}
