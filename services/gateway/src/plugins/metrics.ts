import fp from "fastify-plugin";
import type { Counter, Histogram } from "prom-client";
import { createMetrics, LATENCY_BUCKETS, type Metrics } from "@adrank/telemetry";

export interface GatewayMetrics {
  metrics: Metrics;
  httpDuration: Histogram<"method" | "route" | "status">;
  /** Panels of pairwise requests by status. */
  panels: Counter<"source" | "status">;
  /** Units settled with the ledger: scoring evaluations and pairwise panels. */
  billed: Counter<"kind">;
  /** Settlements the ledger did not confirm while their request waited: recorded ("pending"), then applied or refused by the relay. */
  settlements: Counter<"outcome">;
}

declare module "fastify" {
  interface FastifyInstance {
    gatewayMetrics: GatewayMetrics;
  }
}

export function createGatewayMetrics(metrics: Metrics = createMetrics("gateway")): GatewayMetrics {
  return {
    metrics,
    httpDuration: metrics.histogram("adrank_http_request_duration_seconds", "HTTP request latency by method, route and status.", ["method", "route", "status"], LATENCY_BUCKETS),
    panels: metrics.counter("adrank_panels_total", "Panels run, by where they came from and their status.", ["source", "status"]),
    billed: metrics.counter("adrank_billed_units_total", "Units settled with the ledger, by kind.", ["kind"]),
    settlements: metrics.counter("adrank_settlements_total", "Settlements the ledger did not confirm while their request waited: recorded in the outbox (pending), then applied or refused by the relay.", ["outcome"]),
  };
}

/**
 * Latency of every request by its route pattern (never the raw URL, which would make one
 * series per id) and status. `/metrics` itself is served on a separate port (HEALTH_PORT),
 * so it is never reachable through the public listener.
 */
export default fp(
  async (app, opts: { metrics: GatewayMetrics }) => {
    app.decorate("gatewayMetrics", opts.metrics);
    app.addHook("onResponse", async (request, reply) => {
      const route = request.routeOptions.url ?? "unmatched";
      opts.metrics.httpDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    });
  },
  { name: "metrics" },
);
