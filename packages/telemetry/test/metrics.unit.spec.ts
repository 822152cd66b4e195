import { describe, expect, it } from "vitest";
import { createMetrics } from "../src/index.ts";

describe("metrics registry", () => {
  it("labels every series with the service and includes Node's process metrics", async () => {
    const metrics = createMetrics("ledger");
    metrics.counter("adrank_test_total", "A test counter.", ["outcome"]).inc({ outcome: "ok" });
    const [contentType, body] = await metrics.render();
    expect(contentType).toContain("text/plain");
    expect(body).toContain('adrank_test_total{outcome="ok",service="ledger"} 1');
    expect(body).toContain("process_resident_memory_bytes");
    expect(body).toContain("nodejs_eventloop_lag_seconds");
  });

  it("reads a gauge when scraped and keeps the last value when a read fails", async () => {
    const metrics = createMetrics("scorer");
    let backlog: () => Promise<number> = async () => 7;
    metrics.gaugeOnScrape("adrank_jobs_backlog", "Jobs waiting.", () => backlog());
    expect((await metrics.render())[1]).toContain('adrank_jobs_backlog{service="scorer"} 7');
    backlog = async () => { throw new Error("NATS is away"); };
    expect((await metrics.render())[1]).toContain('adrank_jobs_backlog{service="scorer"} 7');
  });

  it("reports a counter kept elsewhere at its current value on every scrape", async () => {
    const metrics = createMetrics("ledger");
    let conflicts = 2;
    metrics.counterOnScrape("adrank_ledger_conflicts_total", "Append conflicts.", () => conflicts);
    expect((await metrics.render())[1]).toContain('adrank_ledger_conflicts_total{service="ledger"} 2');
    conflicts = 5;
    expect((await metrics.render())[1]).toContain('adrank_ledger_conflicts_total{service="ledger"} 5');
  });
});
