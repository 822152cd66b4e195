// A data URI: "data:", a media type with parameters, ",", then the payload.
const DATA_URI = /^data:([^,]*),/;

/** A byte count as people read it: "512 B", "34 KiB", "1.2 MiB". */
export function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** The decoded size of a data URI's payload, base64 or percent-encoded. */
function payloadBytes(header: string, payload: string): number {
  if (/;base64$/i.test(header)) {
    const padding = payload.endsWith("==") ? 2 : payload.endsWith("=") ? 1 : 0;
    return Math.max(0, Math.floor((payload.length * 3) / 4) - padding);
  }
  return payload.replace(/%[0-9a-f]{2}/gi, "_").length;
}

/**
 * A data URI cut down to its header and size, for output a person reads: the payload of an
 * image is tens of thousands of characters nobody reads. Any other string is returned as is.
 *
 * @example
 * summarizeDataUri("data:image/png;base64,iVBORw0…"); // "data:image/png;base64,… (34 KiB)"
 */
export function summarizeDataUri(text: string): string {
  const match = DATA_URI.exec(text);
  if (!match) return text;
  const header = match[1]!;
  return `data:${header},… (${byteSize(payloadBytes(header, text.slice(match[0].length)))})`;
}
