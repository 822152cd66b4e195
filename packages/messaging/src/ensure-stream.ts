import type { JetStreamManager } from "@nats-io/jetstream";
import type { StreamSpec } from "./topology.ts";

/**
 * Creates the stream when it is missing and leaves an existing one as it is (operators may
 * have raised its replicas). Safe to call from every replica at start.
 */
export async function ensureStream(jsm: JetStreamManager, spec: StreamSpec, replicas = 1): Promise<void> {
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
}
