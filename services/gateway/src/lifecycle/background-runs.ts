import type { TakenOver } from "@adrank/db/repositories";
import type { LifecycleContext } from "./context.ts";

/** A slot for a fresh asynchronous request, given back when the serving scope ends (`using`). */
export type BackgroundSlot = Disposable & { held: boolean };

/**
 * The asynchronous requests this gateway runs in the background, at most
 * `maxBackgroundRuns` at once, and the sweep that starts more: queued requests (this
 * gateway's or another's) and those whose gateway died. A sweep runs every `sweepMs` and
 * whenever a slot frees; the retention purge runs hourly.
 */
export class BackgroundRuns {
  readonly #ctx: LifecycleContext;
  readonly #resume: (t: TakenOver) => Promise<void>;
  readonly #running = new Set<Promise<void>>();
  // Fresh asynchronous requests between taking a slot and joining `#running`: counted too,
  // so that requests arriving together cannot all see the same free slot.
  #starting = 0;
  #sweep: { running: boolean; again: boolean } = { running: false, again: false };
  #closing = false;
  #timers: NodeJS.Timeout[] = [];

  constructor(ctx: LifecycleContext, resume: (t: TakenOver) => Promise<void>) {
    this.#ctx = ctx;
    this.#resume = resume;
  }

  #slotFree(): boolean {
    return this.#running.size + this.#starting < this.#ctx.config.maxBackgroundRuns;
  }

  /** Holds a slot for a fresh asynchronous request when `wanted` and one is free. */
  takeSlot(wanted: boolean): BackgroundSlot {
    const held = wanted && this.#slotFree();
    if (held) this.#starting++;
    return { held, [Symbol.dispose]: () => void (held && this.#starting--) };
  }

  /** Tracks a run until it ends; its end frees a slot, so a sweep follows. */
  add(run: Promise<unknown>): void {
    const tracked: Promise<void> = run.then(
      () => undefined,
      () => undefined,
    );
    this.#running.add(tracked);
    void tracked.finally(() => {
      this.#running.delete(tracked);
      void this.sweep();
    });
  }

  /** Starts queued asynchronous requests and picks up those whose gateway died, while a slot is free. */
  async sweep(): Promise<void> {
    if (this.#closing) return;
    if (this.#sweep.running) {
      this.#sweep.again = true;
      return;
    }
    this.#sweep.running = true;
    const { repo, owner, config } = this.#ctx;
    try {
      do {
        this.#sweep.again = false;
        while (!this.#closing && this.#slotFree()) {
          const t = await repo.takeOverAbandonedAsync(owner, config.leaseMs, config.namespace);
          if (!t) break;
          this.add(this.#resume(t));
        }
      } while (this.#sweep.again && !this.#closing);
    } catch (err) {
      this.#ctx.log.warn({ err }, "looking for abandoned asynchronous requests failed; trying again");
    } finally {
      this.#sweep.running = false;
    }
  }

  /** Starts the periodic sweep and the hourly retention purge. */
  start(): void {
    const { repo, config, log } = this.#ctx;
    const purge = () =>
      repo.purge(config.retentionDays, config.keyTtlHours).then(
        (n) => n > 0 && log.info({ purged: n, retentionDays: config.retentionDays }, "purged requests past their retention"),
        (err: unknown) => log.warn({ err }, "purging old requests failed; trying again in an hour"),
      );
    this.#timers = [setInterval(() => void this.sweep(), config.sweepMs), setInterval(() => void purge(), 3_600_000)];
    for (const t of this.#timers) t.unref();
  }

  /** Stops looking for new work and waits for the runs in flight (bounded by their own limits). */
  async close(): Promise<void> {
    this.#closing = true;
    for (const t of this.#timers) clearInterval(t);
    await Promise.allSettled([...this.#running]);
  }

  /** Runs in flight (tests and metrics). */
  get size(): number {
    return this.#running.size;
  }
}
