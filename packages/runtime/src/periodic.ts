/** A task that runs every interval until stopped. */
export interface PeriodicTask {
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `task` every `intervalMs`, never two runs at once (a slow run is not stacked with the
 * next: that tick is skipped), and never keeping the process alive. A run that throws is
 * handed to `onError` and the next tick runs as usual.
 */
export function runPeriodically(task: () => Promise<unknown>, intervalMs: number, onError: (err: unknown) => void): PeriodicTask {
  let stopped = false;
  let current: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (stopped || current) return;
    current = task()
      .then(
        () => undefined,
        (err: unknown) => onError(err),
      )
      .finally(() => (current = null));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
    },
  };
}
