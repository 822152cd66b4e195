import type { JetStreamManager } from "@nats-io/jetstream";
import type { StreamSpec } from "./topology.ts";

/**
 * Creates the stream when it is missing and leaves an existing one as it is (operators may
 * have raised its replicas). Safe to call from every replica at start.
 */
export async function ensureStream(jsm: JetStreamManager, spec: StreamSpec, replicas = 1): Promise<void> {
  await retryWhileElecting(async () => {
    try {
      await jsm.streams.info(spec.name);
      return;
    } catch (err) {
      if (!(err instanceof Error && /stream not found/i.test(err.message))) throw err;
    }
    try {
      await jsm.streams.add({ ...spec, num_replicas: replicas });
    } catch (err) {
      // Another replica created it between our look-up and our add.
      if (!(err instanceof Error && /already in use/i.test(err.message))) throw err;
    }
  });
}

/**
 * Runs a JetStream set-up call again while it times out. In a cluster, a stream another
 * service has just created answers nothing until its replicas have elected a leader, and the
 * whole JetStream API is silent while the meta leader changes; both take seconds on
 * nats-server 2.9. Services that start together (or during a failover) wait for that instead
 * of exiting. Other errors are thrown at once.
 */
export async function retryWhileElecting<T>(call: () => Promise<T>, patienceMs = 30_000): Promise<T> {
  const until = Date.now() + patienceMs;
  for (;;) {
    try {
      return await call();
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === "TimeoutError" || (err.cause instanceof Error && err.cause.name === "TimeoutError"));
      if (!timedOut || Date.now() >= until) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
