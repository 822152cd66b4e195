// The JSON shapes of Jaeger's HTTP query API (/api/traces, /api/services), which the Jaeger
// UI and scripts written against real Jaeger read. Times there are microseconds.
import type { AttributeValue, ReceivedSpan } from "./span.ts";

export interface JaegerTag {
  key: string;
  type: "string" | "bool" | "int64" | "float64";
  value: AttributeValue;
}
export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references: Array<{ refType: "CHILD_OF"; traceID: string; spanID: string }>;
  startTime: number;
  duration: number;
  tags: JaegerTag[];
  logs: never[];
  processID: string;
  warnings: null;
}
export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string; tags: JaegerTag[] }>;
  warnings: null;
}

/** Jaeger's envelope around every answer. */
export function jaegerResponse<T>(data: T, errors: Array<{ code: number; msg: string }> | null = null) {
  return { data, total: Array.isArray(data) ? data.length : 0, limit: 0, offset: 0, errors };
}

// Jaeger writes OTLP's span kind as the span.kind tag; unspecified gets none.
const KIND_TAG = ["", "internal", "server", "client", "producer", "consumer"];

function tag(key: string, value: AttributeValue): JaegerTag {
  const type = typeof value === "string" ? "string" : typeof value === "boolean" ? "bool" : Number.isInteger(value) ? "int64" : "float64";
  return { key, type, value };
}

const micros = (nanos: bigint) => Number(nanos / 1000n);

/** One trace in Jaeger's shape, its processes named p1, p2… in order of first appearance. */
export function toJaegerTrace(traceId: string, spans: readonly ReceivedSpan[]): JaegerTrace {
  const processIds = new Map<string, string>();
  for (const s of spans) if (!processIds.has(s.service)) processIds.set(s.service, `p${processIds.size + 1}`);
  return {
    traceID: traceId,
    spans: spans.map((s) => {
      const tags = Object.entries(s.attributes).map(([k, v]) => tag(k, v));
      if (KIND_TAG[s.kind]) tags.push(tag("span.kind", KIND_TAG[s.kind]!));
      return {
        traceID: s.traceId,
        spanID: s.spanId,
        operationName: s.name,
        references: s.parentSpanId ? [{ refType: "CHILD_OF" as const, traceID: s.traceId, spanID: s.parentSpanId }] : [],
        startTime: micros(BigInt(s.startTimeUnixNano)),
        duration: Math.max(0, micros(BigInt(s.endTimeUnixNano) - BigInt(s.startTimeUnixNano))),
        tags,
        logs: [],
        processID: processIds.get(s.service)!,
        warnings: null,
      };
    }),
    processes: Object.fromEntries([...processIds].map(([serviceName, id]) => [id, { serviceName, tags: [] }])),
    warnings: null,
  };
}
