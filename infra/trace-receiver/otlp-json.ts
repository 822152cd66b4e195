// OTLP/HTTP JSON (what the SDK sends with OTEL_EXPORTER_OTLP_PROTOCOL=http/json): ids are hex,
// 64-bit integers may come as strings or numbers, bytes as base64.
import { attributeValue, int64Value, type AttributeValue, type ReceivedSpan } from "./span.ts";

interface JsonAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number | string;
  arrayValue?: { values?: JsonAnyValue[] };
  kvlistValue?: { values?: JsonKeyValue[] };
  bytesValue?: string;
}
interface JsonKeyValue {
  key: string;
  value?: JsonAnyValue;
}
interface JsonSpan {
  traceId?: string;
  spanId?: string;
  parentSpanId?: string;
  name?: string;
  kind?: number;
  startTimeUnixNano?: string | number;
  endTimeUnixNano?: string | number;
  attributes?: JsonKeyValue[];
}
interface JsonTraces {
  resourceSpans?: Array<{
    resource?: { attributes?: JsonKeyValue[] };
    scopeSpans?: Array<{ spans?: JsonSpan[] }>;
  }>;
}

function plainValue(v: JsonAnyValue | undefined): unknown {
  if (!v) return undefined;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return typeof v.intValue === "number" ? v.intValue : int64Value(BigInt(v.intValue));
  if (v.doubleValue !== undefined) return Number(v.doubleValue);
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(plainValue);
  if (v.kvlistValue) return Object.fromEntries((v.kvlistValue.values ?? []).map((kv) => [kv.key, plainValue(kv.value)]));
  return v.bytesValue;
}

/** A uint64 timestamp as its decimal string; throws on anything but an integer. */
const nanos = (value: string | number | undefined) => BigInt(value ?? 0).toString();

function attributes(list: JsonKeyValue[] | undefined): Record<string, AttributeValue> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, attributeValue(plainValue(kv.value))]));
}

/** The spans of an ExportTraceServiceRequest in JSON; throws on text that is not one. */
export function decodeOtlpJson(text: string): ReceivedSpan[] {
  const body = JSON.parse(text) as JsonTraces | null;
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new TypeError("not an ExportTraceServiceRequest");
  const out: ReceivedSpan[] = [];
  for (const rs of body.resourceSpans ?? []) {
    const service = String(attributes(rs.resource?.attributes)["service.name"] ?? "");
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        out.push({
          service,
          traceId: String(s.traceId ?? "").toLowerCase(),
          spanId: String(s.spanId ?? "").toLowerCase(),
          parentSpanId: String(s.parentSpanId ?? "").toLowerCase(),
          name: String(s.name ?? ""),
          kind: Number(s.kind ?? 0),
          attributes: attributes(s.attributes),
          startTimeUnixNano: nanos(s.startTimeUnixNano),
          endTimeUnixNano: nanos(s.endTimeUnixNano),
        });
      }
    }
  }
  return out;
}
