import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";
import { chooseEncoding, type AssetEncoding } from "./accept-encoding.ts";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Brotli 9: 11 saves about a tenth more but costs some 13 s of CPU on a 4.9 MB bundle, once
 * per process; 9 takes under a second (zlib's thread pool, off the event loop).
 */
const BROTLI_QUALITY = 9;

export interface EncodedAsset {
  /** sha256 of the bytes, base64url, 16 characters: names the asset's immutable URL. */
  hash: string;
  /** Sends the asset in the coding the request accepts, or 304 when its ETag matches. */
  send(request: FastifyRequest, reply: FastifyReply, cacheControl: string): Promise<FastifyReply>;
  /** The bytes in one coding (compressed once, on first use, then kept). */
  encoded(encoding: AssetEncoding): Promise<Buffer>;
}

/**
 * A static asset served compressed and cacheable: brotli or gzip by Accept-Encoding (each
 * computed once, on first request, and kept for the life of the process), `Vary:
 * Accept-Encoding`, and a strong ETag per coding (each coding is its own representation) so a
 * revalidation gets 304 without a body.
 */
export function encodedAsset(bytes: Buffer, contentType: string): EncodedAsset {
  const hash = createHash("sha256").update(bytes).digest("base64url").slice(0, 16);
  const cache = new Map<AssetEncoding, Promise<Buffer>>([["identity", Promise.resolve(bytes)]]);
  const encoded = (encoding: AssetEncoding): Promise<Buffer> => {
    let body = cache.get(encoding);
    if (!body) {
      body =
        encoding === "br"
          ? brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } })
          : gzipAsync(bytes, { level: 9 });
      // A failure is not kept: the next request tries again.
      body.catch(() => cache.delete(encoding));
      cache.set(encoding, body);
    }
    return body;
  };
  const etagOf = (encoding: AssetEncoding) => `"${hash}${encoding === "identity" ? "" : `-${encoding}`}"`;

  return {
    hash,
    encoded,
    async send(request, reply, cacheControl) {
      const encoding = chooseEncoding(request.headers["accept-encoding"]);
      const etag = etagOf(encoding);
      reply.header("vary", "Accept-Encoding").header("etag", etag).header("cache-control", cacheControl);
      const ifNoneMatch = request.headers["if-none-match"];
      if (ifNoneMatch && (ifNoneMatch.trim() === "*" || ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag))) return reply.code(304).send();
      const body = await encoded(encoding);
      reply.header("content-type", contentType);
      if (encoding !== "identity") reply.header("content-encoding", encoding);
      return reply.send(body);
    },
  };
}
