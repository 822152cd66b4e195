export { tracingRequested, FLUSH_ON_SHUTDOWN } from "./tracing-config.ts";
export { injectTraceContext, extractTraceContext, type HeaderReader, type HeaderWriter } from "./nats-context.ts";
export { inSpan, SpanKind } from "./spans.ts";
export { createMetrics, LATENCY_BUCKETS, type Metrics } from "./metrics.ts";
export { instrumentGenerator, instrumentEmbedder, modelCallInstruments, type ModelCallInstruments } from "./instrument-models.ts";
