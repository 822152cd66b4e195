/** An attribute value as the receiver keeps it: arrays, maps and bytes become strings. */
export type AttributeValue = string | number | boolean;

/** One received span, the same whichever OTLP encoding carried it. */
export interface ReceivedSpan {
  /** The resource's service.name ("" when the exporter sent none). */
  service: string;
  /** Lowercase hex, 32 characters. */
  traceId: string;
  /** Lowercase hex, 16 characters. */
  spanId: string;
  /** Lowercase hex; "" for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, AttributeValue>;
  /** Nanoseconds since the epoch, as a decimal string (they exceed Number's exact range). */
  startTimeUnixNano: string;
  endTimeUnixNano: string;
}

/** An int64 as a number when it fits exactly, otherwise as its decimal string. */
export function int64Value(value: bigint): number | string {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
}

/** An attribute from a decoded AnyValue: scalars as they are, arrays and maps as JSON text. */
export function attributeValue(plain: unknown): AttributeValue {
  if (typeof plain === "string" || typeof plain === "number" || typeof plain === "boolean") return plain;
  return plain === undefined ? "" : JSON.stringify(plain);
}
