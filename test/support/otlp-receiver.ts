import { startTraceReceiver, type ReceivedSpan } from "@adrank/infra/trace-receiver";

export type { ReceivedSpan };

/**
 * A collector stand-in on loopback (infra/trace-receiver: OTLP/HTTP, protobuf or JSON) that
 * keeps every span and every raw body, so a test can check both the trace's shape and that no
 * secret was exported. A JSON body is kept as its text; a protobuf body as its bytes read as
 * UTF-8, in which every string field of the export still appears verbatim.
 */
export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const rawBodies: string[] = [];
  const receiver = await startTraceReceiver({
    host: "127.0.0.1",
    otlpPort: 0,
    queryPort: 0,
    healthPort: 0,
    onExport: (batch, body) => {
      for (const s of batch) spans.push(s);
      rawBodies.push(body.toString("utf8"));
    },
  });
  return {
    endpoint: receiver.otlp.url,
    spans,
    rawBodies,
    trace: (traceId: string) => spans.filter((s) => s.traceId === traceId),
    close: () => receiver.close(),
  };
}
export type OtlpReceiver = Awaited<ReturnType<typeof startOtlpReceiver>>;
