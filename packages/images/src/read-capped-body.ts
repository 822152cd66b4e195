import type { IncomingMessage } from "node:http";
import { formatBytes } from "./format-bytes.ts";
import { IntakeRefusal } from "./intake-refusal.ts";

/**
 * Reads a response body, refusing it as soon as it is known to exceed `maxBytes`: from a
 * Content-Length header before any byte is read, otherwise the moment the running total passes
 * the cap. Either way the connection is torn down, so the rest is never downloaded.
 */
export async function readCappedBody(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(res.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    throw new IntakeRefusal("too-large", `the image is ${formatBytes(declared)}, over the ${formatBytes(maxBytes)} limit`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res) {
    const piece = chunk as Buffer;
    total += piece.length;
    if (total > maxBytes) {
      res.destroy();
      throw new IntakeRefusal("too-large", `the image is larger than the ${formatBytes(maxBytes)} limit`);
    }
    chunks.push(piece);
  }
  return Buffer.concat(chunks, total);
}
