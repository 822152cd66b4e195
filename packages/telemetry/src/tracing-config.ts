/** True when the environment asks for traces: an OTLP endpoint or an explicit exporter. */
export function tracingRequested(env: Record<string, string | undefined> = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === "true") return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim();
  if (exporter === "none") return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || exporter);
}

/** Where the tracing SDK leaves its flush for the runtime's shutdown (no import needed either way). */
export const FLUSH_ON_SHUTDOWN = Symbol.for("adrank.telemetry.flush");
