import { register } from "node:module";
import { createAddHookMessageChannel } from "import-in-the-middle";
import { getNodeAutoInstrumentations } from "@opentelemetry/auto-instrumentations-node";
import { NodeSDK } from "@opentelemetry/sdk-node";
import { FastifyOtelInstrumentation } from "@fastify/otel";
import { FLUSH_ON_SHUTDOWN, tracingRequested } from "./tracing-config.ts";

let sdk: NodeSDK | undefined;
const PROBES = new Set(["/healthz", "/readyz", "/metrics"]);

/**
 * Starts the Node SDK with the auto-instrumentations we rely on: http (server spans and
 * outgoing image fetches), fastify (route and handler spans, through fastify's own
 * instrumentation, which replaced the deprecated contrib one), pg, pino (trace ids in every
 * log line) and undici. Everything else (fs, dns, net) would only add noise. Exporter, endpoint, sampler and
 * service name come from the standard OTEL_* variables.
 */
export async function startTracing(): Promise<boolean> {
  if (sdk || !tracingRequested()) return false;
  // ESM modules are only patchable through import-in-the-middle's loader hook; it wraps
  // just the modules the instrumentations ask for, so our own .ts files load untouched.
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register("import-in-the-middle/hook.mjs", import.meta.url, registerOptions);
  sdk = new NodeSDK({
    instrumentations: [
      getNodeAutoInstrumentations({
        "@opentelemetry/instrumentation-fs": { enabled: false },
        "@opentelemetry/instrumentation-dns": { enabled: false },
        "@opentelemetry/instrumentation-net": { enabled: false },
        "@opentelemetry/instrumentation-http": { ignoreIncomingRequestHook: (req) => PROBES.has(req.url ?? "") },
      }),
      // Hooks as spans would triple the span count of a request for little insight.
      new FastifyOtelInstrumentation({ registerOnInitialization: true, instrumentHooks: false, ignorePaths: ({ url }) => PROBES.has(url) }),
    ],
  });
  sdk.start();
  await waitForAllMessagesAcknowledged();
  // The runtime's shutdown calls this last, so buffered spans are exported before exit.
  (globalThis as Record<symbol, unknown>)[FLUSH_ON_SHUTDOWN] = () => sdk?.shutdown().catch(() => {});
  return true;
}
