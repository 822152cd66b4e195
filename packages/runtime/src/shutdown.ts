import type { Logger } from "pino";

/**
 * Runs the given steps in order on SIGTERM or SIGINT, once. A second signal, or steps that
 * take longer than `graceMs`, end the process at once so an orchestrator is never stuck.
 */
export function onShutdown(logger: Logger, steps: Array<{ name: string; run: () => Promise<unknown> }>, graceMs = 25_000): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, "second signal: exiting now");
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, "shutting down");
    const timer = setTimeout(() => {
      logger.error({ graceMs }, "shutdown took too long: exiting");
      process.exit(1);
    }, graceMs);
    timer.unref();
    let code = 0;
    for (const step of steps) {
      try {
        await step.run();
      } catch (err) {
        code = 1;
        logger.error({ err, step: step.name }, "shutdown step failed");
      }
    }
    // The tracing SDK (when loaded) exports its buffered spans before the process ends.
    const flush = (globalThis as Record<symbol, unknown>)[Symbol.for("adrank.telemetry.flush")];
    if (typeof flush === "function") await (flush as () => Promise<void>)();
    logger.info("stopped");
    process.exit(code);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}
