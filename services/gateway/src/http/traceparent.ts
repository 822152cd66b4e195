/** A W3C traceparent worth forwarding, or null: a malformed header must not reach the workers. */
export function validTraceparent(value: string | string[] | undefined): string | null {
  const v = Array.isArray(value) ? value[0] : value;
  return v && /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/.test(v) && !/^[0-9a-f]{2}-0{32}-/.test(v) && !/-0{16}-[0-9a-f]{2}$/.test(v) ? v : null;
}
