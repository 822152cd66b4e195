import { MiB, TINY_GIF, audience, bitmapBombPng, dataUri, deflatedZeros, gifClaiming, good, goodPng, jpegClaiming, pairWith, pngClaiming, rankWith, uniformPng, webpClaiming } from "./helpers.ts";
import type { HostileCase } from "./types.ts";

const RANK = "/api/v1/rank";

const ELF = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00]);
const BMP = Buffer.concat([Buffer.from("BM", "ascii"), Buffer.alloc(52)]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');

/** The good PNG with one byte of its compressed pixel data flipped: the CRC no longer matches. */
function corruptedPng(): Buffer {
  const png = Buffer.from(goodPng(5));
  const idat = png.indexOf("IDAT", 0, "ascii");
  png[idat + 12] = png[idat + 12]! ^ 0xff;
  return png;
}

// Data URIs whose declared type lies, or whose bytes are no (whole) image: a per-asset error
// with a sentence saying what was wrong; the good asset next to it is ranked and billed.
const refused: Array<[string, () => string, RegExp]> = [
  ["PNG bytes declared image/jpeg", () => dataUri("image/jpeg", goodPng(5)), /says image\/jpeg but the bytes are a PNG image/],
  ["PNG bytes declared image/webp", () => dataUri("image/webp", goodPng(5)), /says image\/webp but the bytes are a PNG image/],
  ["PNG bytes declared image/gif", () => dataUri("image/gif", goodPng(5)), /says image\/gif but the bytes are a PNG image/],
  ["GIF bytes declared image/png", () => dataUri("image/png", TINY_GIF), /says image\/png but the bytes are a GIF image/],
  ["text declared image/png", () => dataUri("image/png", Buffer.from("hello, I am not an image at all")), /bytes are text/],
  ["HTML declared image/png", () => dataUri("image/png", Buffer.from("<!DOCTYPE html><html><script>alert(1)</script></html>")), /bytes are an HTML page/],
  ["SVG declared image/png", () => dataUri("image/png", SVG), /bytes are an SVG image/],
  ["SVG as image/svg+xml", () => dataUri("image/svg+xml", SVG), /data URIs must be image\/png, image\/jpeg, image\/webp or image\/gif/],
  ["BMP as image/bmp", () => dataUri("image/bmp", BMP), /data URIs must be/],
  ["an icon as image/x-icon", () => dataUri("image/x-icon", Buffer.from([0, 0, 1, 0, 1, 0])), /data URIs must be/],
  ["BMP bytes declared image/png", () => dataUri("image/png", BMP), /bytes are a BMP image/],
  ["PDF declared image/jpeg", () => dataUri("image/jpeg", Buffer.from("%PDF-1.7\n1 0 obj<<>>endobj\n")), /bytes are a PDF document/],
  ["an ELF binary declared image/gif", () => dataUri("image/gif", ELF), /bytes are not an image in a known format/],
  ["a PNG signature followed by HTML (polyglot)", () => dataUri("image/png", Buffer.concat([goodPng(5).subarray(0, 8), Buffer.from("<html><script>alert(1)</script></html>")])), /corrupt/],
  ["a truncated PNG (its first 40 bytes)", () => dataUri("image/png", goodPng(5).subarray(0, 40)), /corrupt/],
  ["a PNG with its last 30 bytes cut off", () => dataUri("image/png", goodPng(5).subarray(0, goodPng(5).length - 30)), /truncated or corrupt/],
  ["a PNG whose pixel data fails its checksum", () => dataUri("image/png", corruptedPng()), /truncated or corrupt|corrupt/],
  ["a JPEG that is only its first three bytes", () => dataUri("image/jpeg", Buffer.from([0xff, 0xd8, 0xff])), /corrupt/],
  ["a WebP container with nothing in it", () => dataUri("image/webp", Buffer.from("RIFF\x04\x00\x00\x00WEBP", "latin1")), /corrupt/],
  ["zero bytes declared image/png", () => "data:image/png;base64,", /bytes are empty/],
  ["zero bytes declared image/jpeg", () => "data:image/jpeg;base64,", /bytes are empty/],
  ["zero bytes declared image/gif, without base64", () => "data:image/gif,", /not base64-encoded/],
  ["no comma at all", () => "data:image/png;base64", /no comma/],
  ["base64 that is not base64", () => "data:image/png;base64,!!!!****", /not valid base64/],
  ["percent-encoded bytes instead of base64", () => `data:image/png,${encodeURIComponent(goodPng(5).toString("latin1"))}`, /not base64-encoded/],
  ["a broken percent-escape", () => "data:image/png;base64,iVBO%E0%A4%A", /broken percent-escape/],
  ["a media type parameter after base64", () => `data:image/png;base64;charset=utf-8,${goodPng(5).toString("base64")}`, /not base64-encoded/],
];

// Spellings of a data URI that are legitimate: the image is taken in and ranked.
const accepted: Array<[string, () => string]> = [
  ["upper-case DATA:IMAGE/PNG;BASE64", () => `DATA:IMAGE/PNG;BASE64,${goodPng(6).toString("base64")}`],
  ["base64 broken over lines", () => `data:image/png;base64,${goodPng(6).toString("base64").replace(/(.{60})/g, "$1\r\n")}`],
  ["URL-safe base64", () => `data:image/png;base64,${goodPng(6).toString("base64url")}`],
  ["a name parameter before base64", () => `data:image/png;name=ad.png;base64,${goodPng(6).toString("base64")}`],
  ["a 1 x 1 GIF", () => dataUri("image/gif", TINY_GIF)],
];

// Decompression bombs: a header claiming more than 40 megapixels is refused before a pixel is
// decoded; images just under the limit are decoded (they are legitimate) without hurting the gateway.
const MEGAPIXELS = /megapixel limit/;
const HEADER_BOMB = /megapixel limit|corrupt/;
const bombs: Array<[string, () => Buffer, string, RegExp]> = [
  ["a PNG header claiming 50000 x 50000 pixels", () => pngClaiming(50_000, 50_000, deflatedZeros(1024)), "image/png", MEGAPIXELS],
  ["a PNG claiming 7000 x 7000 pixels (49 MP, just over the limit)", () => pngClaiming(7000, 7000, deflatedZeros(1024)), "image/png", MEGAPIXELS],
  ["a PNG claiming 2^31-1 x 2^31-1 pixels", () => pngClaiming(2 ** 31 - 1, 2 ** 31 - 1, deflatedZeros(16)), "image/png", HEADER_BOMB],
  ["a 20000 x 20000 PNG whose 64 MiB of zero rows deflate to 64 KiB", () => pngClaiming(20_000, 20_000, deflatedZeros(64 * MiB)), "image/png", MEGAPIXELS],
  ["a 1-bit 20000 x 20000 PNG (50 KB, 400 megapixels)", () => bitmapBombPng(20_000), "image/png", MEGAPIXELS],
  ["a GIF claiming 65535 x 65535 pixels", () => gifClaiming(65_535, 65_535), "image/gif", HEADER_BOMB],
  ["a JPEG claiming 65500 x 65500 pixels", () => jpegClaiming(65_500, 65_500), "image/jpeg", HEADER_BOMB],
  ["a WebP claiming 16384 x 16384 pixels", () => webpClaiming(16_384, 16_384), "image/webp", HEADER_BOMB],
  // Few pixels, but its rows are far longer than the pixel data that follows.
  ["a PNG claiming 100000 x 1 pixels with 1 KiB of pixel data", () => pngClaiming(100_000, 1, deflatedZeros(1024)), "image/png", /truncated or corrupt|corrupt/],
];

export const imageCases: HostileCase[] = [
  ...refused.map(([name, url, error]): HostileCase => ({ category: "lying data URIs", name: `rank: ${name}`, path: RANK, body: () => rankWith({ url: url() }), expect: { assetErrors: { hostile: error } } })),
  ...accepted.map(([name, url]): HostileCase => ({ category: "lying data URIs", name: `rank: ${name} is accepted`, path: RANK, body: () => rankWith({ url: url() }), expect: { ok: true } })),
  { category: "lying data URIs", name: "pairwise: text declared image/png", path: "/api/v1/pairwise", body: () => pairWith({ image_url: dataUri("image/png", Buffer.from("not an image")) }), expect: { pairError: /bytes are text/ } },
  { category: "lying data URIs", name: "pairwise: zero bytes declared image/png", path: "/api/v1/pairwise", body: () => pairWith({ image_url: "data:image/png;base64," }), expect: { pairError: /bytes are empty/ } },
  { category: "lying data URIs", name: "pairwise: PNG bytes declared image/jpeg", path: "/api/v1/pairwise", body: () => pairWith({ image_url: dataUri("image/jpeg", goodPng(5)) }), expect: { pairError: /says image\/jpeg but the bytes are a PNG image/ } },

  ...bombs.map(([name, make, mime, error]): HostileCase => ({ category: "decompression bombs", name: `rank: ${name}`, path: RANK, body: () => rankWith({ url: dataUri(mime, make()) }), expect: { assetErrors: { hostile: error } } })),
  { category: "decompression bombs", name: "pairwise: a PNG header claiming 50000 x 50000 pixels", path: "/api/v1/pairwise", body: () => pairWith({ image_url: dataUri("image/png", pngClaiming(50_000, 50_000, deflatedZeros(1024))) }), expect: { pairError: MEGAPIXELS } },
  { category: "decompression bombs", name: "rank: a real 6000 x 6000 PNG (36 MP, 108 MB of pixels in 100 KB) is decoded and ranked", path: RANK, body: () => rankWith({ url: dataUri("image/png", uniformPng(6000, 90)) }), expect: { ok: true } },
  {
    category: "decompression bombs",
    name: "rank: four different 36 MP PNGs in one request are decoded side by side",
    path: RANK,
    body: () => ({ assets: [10, 60, 110, 160].map((grey, i) => ({ url: dataUri("image/png", uniformPng(6000, grey)), id: `big${i}` })), audience }),
    expect: { ok: true },
  },
  { category: "decompression bombs", name: "rank: the same bomb header twenty times in one request", path: RANK, body: () => ({ assets: Array.from({ length: 20 }, (_, i) => ({ url: dataUri("image/png", pngClaiming(50_000, 50_000, deflatedZeros(1024))), id: `bomb${i}` })), audience }), expect: { assetErrors: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`bomb${i}`, MEGAPIXELS])) } },
  { category: "decompression bombs", name: "rank: a good creative and a 400-megapixel bitmap bomb in one request", path: RANK, body: () => ({ assets: [{ url: good(7), id: "twin" }, { url: dataUri("image/png", bitmapBombPng(20_000)), id: "twin-bomb" }], audience }), expect: { assetErrors: { "twin-bomb": MEGAPIXELS } } },
];
