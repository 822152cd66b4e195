import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from "@opentelemetry/api";

const tracer = () => trace.getTracer("adrank");

export { SpanKind };

/**
 * Runs `fn` inside a new span (a child of `parent`, else of the active span) and ends it
 * when `fn` settles; a thrown error is recorded on the span and rethrown. Attributes must
 * never carry a key, a password or image bytes.
 *
 * @example
 * await inSpan("ledger reserve", { kind: SpanKind.CLIENT }, () => nc.request(...));
 */
export async function inSpan<T>(name: string, options: { kind?: SpanKind; attributes?: Attributes; parent?: Context }, fn: (span: Span) => Promise<T>): Promise<T> {
  const parent = options.parent ?? context.active();
  const span = tracer().startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, ...(options.attributes ? { attributes: options.attributes } : {}) }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (err) {
    span.recordException(err instanceof Error ? err : String(err));
    span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.name : "error" });
    throw err;
  } finally {
    span.end();
  }
}
