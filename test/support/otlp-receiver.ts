import { createServer, type Server } from "node:http";

/** One span as the OTLP/HTTP JSON encoding carries it, with its service name attached. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpTraces {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{ spans?: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: OtlpAttribute[] }> }>;
  }>;
}

const valueOf = (v: OtlpValue): string | number | boolean => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.doubleValue ?? v.boolValue ?? "";
const attributesOf = (list: OtlpAttribute[] = []) => Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

/**
 * A collector stand-in on loopback that speaks OTLP/HTTP with JSON bodies (what the SDK sends
 * with OTEL_EXPORTER_OTLP_PROTOCOL=http/json) and keeps every span and every raw body, so a
 * test can check both the trace's shape and that no secret was exported.
 */
export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const rawBodies: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      if (req.url === "/v1/traces") {
        rawBodies.push(text);
        const body = JSON.parse(text) as OtlpTraces;
        for (const rs of body.resourceSpans ?? []) {
          const service = String(attributesOf(rs.resource?.attributes)["service.name"] ?? "");
          for (const ss of rs.scopeSpans ?? []) {
            for (const s of ss.spans ?? []) {
              spans.push({ service, traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId ?? "", name: s.name, kind: s.kind, attributes: attributesOf(s.attributes) });
            }
          }
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (typeof address !== "object" || !address) throw new Error("the receiver has no address");
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    spans,
    rawBodies,
    trace: (traceId: string) => spans.filter((s) => s.traceId === traceId),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type OtlpReceiver = Awaited<ReturnType<typeof startOtlpReceiver>>;
