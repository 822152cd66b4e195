// Every message body on the bus is UTF-8 JSON; its shape is checked by the reader against
// the schemas in @adrank/bus-contracts.
const encoder = new TextEncoder();
const decoder = new TextDecoder();
export const encodeJson = (value: unknown): Uint8Array => encoder.encode(JSON.stringify(value));
export const decodeJson = (data: Uint8Array): unknown => JSON.parse(decoder.decode(data));
