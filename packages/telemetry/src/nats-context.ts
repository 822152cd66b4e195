import { context, propagation, ROOT_CONTEXT, type Context } from "@opentelemetry/api";

/** The parts of a NATS `MsgHdrs` the propagators touch. */
export interface HeaderWriter {
  set(key: string, value: string): void;
}
export interface HeaderReader {
  get(key: string): string;
  keys(): string[];
}

/**
 * Writes the active trace context (W3C `traceparent`, `tracestate`) into NATS message
 * headers, so the worker that takes the job continues the caller's trace. A no-op while
 * tracing is off.
 */
export function injectTraceContext(headers: HeaderWriter, ctx: Context = context.active()): void {
  propagation.inject(ctx, headers, { set: (carrier, key, value) => carrier.set(key, value) });
}

/** The trace context a message carries, or the root context when it carries none. */
export function extractTraceContext(headers: HeaderReader | undefined): Context {
  if (!headers) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, headers, {
    get: (carrier, key) => carrier.get(key) || undefined,
    keys: (carrier) => carrier.keys(),
  });
}
