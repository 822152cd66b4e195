import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SpanStatusCode, trace } from "@opentelemetry/api";
import { extractTraceContext, injectTraceContext, inSpan, SpanKind } from "../src/index.ts";
import { installInMemoryTracing } from "./in-memory-tracing.ts";

/** A stand-in for NATS `MsgHdrs`: the same get/set/keys surface. */
class Headers {
  readonly values = new Map<string, string>();
  set(key: string, value: string) {
    this.values.set(key, value);
  }
  get(key: string) {
    return this.values.get(key) ?? "";
  }
  keys() {
    return [...this.values.keys()];
  }
}

describe("spans and trace context over message headers", () => {
  let tracing: ReturnType<typeof installInMemoryTracing>;
  beforeAll(() => {
    tracing = installInMemoryTracing();
  });
  afterAll(() => tracing.uninstall());
  beforeEach(() => tracing.reset());

  it("nests spans and carries the trace through headers to the worker's span", async () => {
    const headers = new Headers();
    await inSpan("publish score job", { kind: SpanKind.PRODUCER }, async () => {
      injectTraceContext(headers);
    });
    expect(headers.get("traceparent")).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);

    await inSpan("score job", { kind: SpanKind.CONSUMER, parent: extractTraceContext(headers) }, async () => {
      await inSpan("chat sim", { kind: SpanKind.CLIENT }, async () => {});
    });

    const [producer, model, consumer] = tracing.spans();
    expect(producer!.name).toBe("publish score job");
    expect(consumer!.spanContext().traceId).toBe(producer!.spanContext().traceId);
    expect(consumer!.parentSpanContext?.spanId).toBe(producer!.spanContext().spanId);
    expect(model!.parentSpanContext?.spanId).toBe(consumer!.spanContext().spanId);
    expect(consumer!.kind).toBe(SpanKind.CONSUMER);
  });

  it("starts a new trace for a message without trace headers", async () => {
    await inSpan("score job", { parent: extractTraceContext(undefined) }, async () => {});
    await inSpan("vote job", { parent: extractTraceContext(new Headers()) }, async () => {});
    const [a, b] = tracing.spans();
    expect(a!.parentSpanContext).toBeUndefined();
    expect(b!.parentSpanContext).toBeUndefined();
    expect(a!.spanContext().traceId).not.toBe(b!.spanContext().traceId);
  });

  it("records a thrown error on the span, rethrows it and still ends the span", async () => {
    const failure = new TypeError("the ledger did not answer");
    await expect(inSpan("ledger reserve", { kind: SpanKind.CLIENT }, async () => { throw failure; })).rejects.toBe(failure);
    const [span] = tracing.spans();
    expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: "TypeError" });
    expect(span!.events.map((e) => e.name)).toEqual(["exception"]);
    expect(span!.ended).toBe(true);
  });

  it("makes the span active inside the callback so nested instrumentation joins it", async () => {
    let seen: string | undefined;
    await inSpan("outer", {}, async (span) => {
      await new Promise((r) => setTimeout(r, 5));
      seen = trace.getActiveSpan()?.spanContext().spanId;
      expect(seen).toBe(span.spanContext().spanId);
    });
    expect(seen).toBeDefined();
  });
});
