import type { ReceivedSpan } from "./span.ts";

/**
 * The newest `maxSpans` spans, indexed by trace: a long-running receiver drops its oldest
 * spans rather than growing without bound (Jaeger's memory storage has the same cap).
 */
export class SpanStore {
  private readonly maxSpans: number;
  /** Every kept span in arrival order; the live ones start at `head`. */
  private queue: Array<ReceivedSpan | undefined> = [];
  private head = 0;
  private readonly traces = new Map<string, ReceivedSpan[]>();
  private readonly spansPerService = new Map<string, number>();

  constructor(maxSpans: number) {
    if (!(maxSpans >= 1)) throw new RangeError("maxSpans must be at least 1");
    this.maxSpans = maxSpans;
  }

  get size(): number {
    return this.queue.length - this.head;
  }

  add(spans: readonly ReceivedSpan[]): void {
    for (const span of spans) {
      this.queue.push(span);
      const trace = this.traces.get(span.traceId);
      if (trace) trace.push(span);
      else this.traces.set(span.traceId, [span]);
      this.spansPerService.set(span.service, (this.spansPerService.get(span.service) ?? 0) + 1);
    }
    while (this.size > this.maxSpans) this.evictOldest();
    // Drop the evicted prefix now and then instead of shifting the array on every eviction.
    if (this.head > this.maxSpans) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }

  /** The spans of one trace in arrival order; empty when unknown (or evicted). */
  trace(traceId: string): ReceivedSpan[] {
    return [...(this.traces.get(traceId) ?? [])];
  }

  /** The service names of the kept spans, sorted. */
  services(): string[] {
    return [...this.spansPerService.keys()].sort();
  }

  /** Ids of the newest traces with a span of `service`, newest first. */
  recentTraceIds(service: string, limit: number): string[] {
    const ids = new Set<string>();
    for (let i = this.queue.length - 1; i >= this.head && ids.size < limit; i--) {
      const span = this.queue[i]!;
      if (span.service === service) ids.add(span.traceId);
    }
    return [...ids];
  }

  private evictOldest(): void {
    const span = this.queue[this.head]!;
    this.queue[this.head++] = undefined; // let it be collected before the next compaction
    // Spans enter their trace's list in arrival order, so the oldest overall is first there.
    const trace = this.traces.get(span.traceId)!;
    trace.shift();
    if (trace.length === 0) this.traces.delete(span.traceId);
    const left = this.spansPerService.get(span.service)! - 1;
    if (left === 0) this.spansPerService.delete(span.service);
    else this.spansPerService.set(span.service, left);
  }
}
