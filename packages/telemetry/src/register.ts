// Loaded with `node --import @adrank/telemetry/register <main>` (the start script, the test
// harness and the images do this), so the OpenTelemetry SDK and its module hooks are in
// place before any instrumented module (http, pg, pino) is loaded. The SDK is imported only
// when an exporter is configured: a service without tracing does not pay for loading it.
import { tracingRequested } from "./tracing-config.ts";

if (tracingRequested()) {
  const { startTracing } = await import("./tracing.ts");
  await startTracing();
}
