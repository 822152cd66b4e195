import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * One Prometheus registry per process, labelled with the service name, with Node's default
 * process metrics (memory, event loop lag, GC). Services add their own instruments.
 */
export function createMetrics(service: string) {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    counter<L extends string>(name: string, help: string, labelNames: readonly L[] = []) {
      return new Counter<L>({ name, help, labelNames, registers: [registry] });
    },
    histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) {
      return new Histogram<L>({ name, help, labelNames, buckets, registers: [registry] });
    },
    /** A gauge read when scraped: `read` may be async (e.g. a JetStream consumer's backlog). */
    gaugeOnScrape(name: string, help: string, read: () => number | Promise<number>) {
      return new Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          try {
            this.set(await read());
          } catch {
            // A failed read leaves the last value; the scrape itself must not fail.
          }
        },
      });
    },
    /** A counter kept elsewhere (e.g. a store's statistics), read when scraped. */
    counterOnScrape(name: string, help: string, read: () => number) {
      return new Counter({
        name,
        help,
        registers: [registry],
        collect() {
          this.reset();
          this.inc(read());
        },
      });
    },
    /** The text exposition for `/metrics`: [content type, body]. */
    async render(): Promise<[string, string]> {
      return [registry.contentType, await registry.metrics()];
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;

/** Latency buckets in seconds for HTTP requests and model calls (10 ms to 2 min). */
export const LATENCY_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
