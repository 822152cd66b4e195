/**
 * Width and height from an image's header, as the providers read them before counting its
 * tokens: PNG's IHDR chunk, JPEG's first start-of-frame marker, WebP's VP8 / VP8L / VP8X
 * header. Null when the bytes are none of these (the fakes refuse such images before counting).
 */
export function imageSize(bytes: Buffer): { width: number; height: number } | null {
  // PNG: signature, then IHDR with width and height as big-endian 32-bit integers (PNG spec 11.2.2).
  if (bytes.length >= 24 && bytes[0] === 0x89 && bytes.toString("latin1", 1, 4) === "PNG") return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes);
  if (bytes.length >= 30 && bytes.toString("latin1", 0, 4) === "RIFF" && bytes.toString("latin1", 8, 12) === "WEBP") return webpSize(bytes);
  return null;
}

// SOF0-SOF15 carry the frame size, except DHT (C4), JPG (C8) and DAC (CC) (ITU T.81, table B.1).
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpegSize(bytes: Buffer): { width: number; height: number } | null {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    if (isStartOfFrame(marker)) return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    at += 2 + length;
  }
  return null;
}

function webpSize(bytes: Buffer): { width: number; height: number } | null {
  const chunk = bytes.toString("latin1", 12, 16);
  // Lossy: 14-bit sizes after the frame tag and start code (RFC 9649 section 2.5, VP8 key frame header).
  if (chunk === "VP8 ") return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  // Lossless: 14-bit width-1 and height-1 packed after the signature byte (RFC 9649 section 3.2).
  if (chunk === "VP8L") {
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  // Extended: 24-bit canvas width-1 and height-1 (RFC 9649 section 2.7).
  if (chunk === "VP8X") return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  return null;
}
