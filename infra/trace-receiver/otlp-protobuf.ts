// OTLP/HTTP protobuf (the SDK's default, http/protobuf): ExportTraceServiceRequest decoded by
// hand with the field numbers of opentelemetry-proto's collector/trace/v1/trace_service.proto,
// trace/v1/trace.proto and common/v1/common.proto. Fields not listed are skipped.
import { ProtobufReader, WIRE } from "./protobuf-reader.ts";
import { attributeValue, int64Value, type AttributeValue, type ReceivedSpan } from "./span.ts";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** Calls `onField` for every field of the message; fields it does not consume are skipped. */
function eachField(r: ProtobufReader, onField: (field: number, wireType: number) => boolean): void {
  while (!r.done) {
    const tag = r.tag();
    if (!onField(tag.field, tag.wireType)) r.skip(tag);
  }
}

/** Every occurrence of the repeated message field `field`, decoded. */
function repeated<T>(r: ProtobufReader, field: number, decode: (message: ProtobufReader) => T): T[] {
  const out: T[] = [];
  eachField(r, (f, wireType) => {
    if (f !== field || wireType !== WIRE.LEN) return false;
    out.push(decode(r.message()));
    return true;
  });
  return out;
}

/** AnyValue: string_value=1, bool_value=2, int_value=3, double_value=4, array_value=5, kvlist_value=6, bytes_value=7. */
function anyValue(r: ProtobufReader): unknown {
  let value: unknown;
  eachField(r, (field, wireType) => {
    if (field === 1 && wireType === WIRE.LEN) value = r.string();
    else if (field === 2 && wireType === WIRE.VARINT) value = r.varint() !== 0;
    else if (field === 3 && wireType === WIRE.VARINT) value = int64Value(BigInt.asIntN(64, r.varint64()));
    else if (field === 4 && wireType === WIRE.I64) value = r.double();
    // ArrayValue: values=1; KeyValueList: values=1.
    else if (field === 5 && wireType === WIRE.LEN) value = repeated(r.message(), 1, anyValue);
    else if (field === 6 && wireType === WIRE.LEN) value = Object.fromEntries(repeated(r.message(), 1, keyValue));
    else if (field === 7 && wireType === WIRE.LEN) value = Buffer.from(r.bytesField()).toString("base64");
    else return false;
    return true;
  });
  return value;
}

/** KeyValue: key=1, value=2. */
function keyValue(r: ProtobufReader): [string, unknown] {
  let key = "";
  let value: unknown;
  eachField(r, (field, wireType) => {
    if (field === 1 && wireType === WIRE.LEN) key = r.string();
    else if (field === 2 && wireType === WIRE.LEN) value = anyValue(r.message());
    else return false;
    return true;
  });
  return [key, value];
}

const attributes = (pairs: Array<[string, unknown]>): Record<string, AttributeValue> => Object.fromEntries(pairs.map(([k, v]) => [k, attributeValue(v)]));

/**
 * Span: trace_id=1, span_id=2, trace_state=3, parent_span_id=4, name=5, kind=6,
 * start_time_unix_nano=7 (fixed64), end_time_unix_nano=8 (fixed64), attributes=9, flags=16 (fixed32).
 */
function span(r: ProtobufReader, service: string): ReceivedSpan {
  const s: ReceivedSpan = { service, traceId: "", spanId: "", parentSpanId: "", name: "", kind: 0, attributes: {}, startTimeUnixNano: "0", endTimeUnixNano: "0" };
  const pairs: Array<[string, unknown]> = [];
  eachField(r, (field, wireType) => {
    if (field === 1 && wireType === WIRE.LEN) s.traceId = hex(r.bytesField());
    else if (field === 2 && wireType === WIRE.LEN) s.spanId = hex(r.bytesField());
    else if (field === 4 && wireType === WIRE.LEN) s.parentSpanId = hex(r.bytesField());
    else if (field === 5 && wireType === WIRE.LEN) s.name = r.string();
    else if (field === 6 && wireType === WIRE.VARINT) s.kind = r.varint();
    else if (field === 7 && wireType === WIRE.I64) s.startTimeUnixNano = r.fixed64().toString();
    else if (field === 8 && wireType === WIRE.I64) s.endTimeUnixNano = r.fixed64().toString();
    else if (field === 9 && wireType === WIRE.LEN) pairs.push(keyValue(r.message()));
    else return false; // trace_state, flags, events, links, status: not kept
    return true;
  });
  s.attributes = attributes(pairs);
  return s;
}

/** ResourceSpans: resource=1 (Resource: attributes=1), scope_spans=2 (ScopeSpans: scope=1, spans=2). */
function resourceSpans(r: ProtobufReader): ReceivedSpan[] {
  // The resource may follow its spans on the wire: read it first, decode the spans after.
  const scopes: ProtobufReader[] = [];
  let resource: Record<string, AttributeValue> = {};
  eachField(r, (field, wireType) => {
    if (field === 1 && wireType === WIRE.LEN) resource = attributes(repeated(r.message(), 1, keyValue));
    else if (field === 2 && wireType === WIRE.LEN) scopes.push(r.message());
    else return false;
    return true;
  });
  const service = String(resource["service.name"] ?? "");
  return scopes.flatMap((scope) => repeated(scope, 2, (m) => span(m, service)));
}

/** The spans of an ExportTraceServiceRequest (resource_spans=1); throws on malformed bytes. */
export function decodeOtlpProtobuf(body: Uint8Array): ReceivedSpan[] {
  return repeated(new ProtobufReader(body), 1, resourceSpans).flat();
}
