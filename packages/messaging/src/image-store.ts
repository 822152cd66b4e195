import { Objm, type ObjectStore } from "@nats-io/obj";
import type { NatsConnection } from "@nats-io/transport-node";
import { retryWhileElecting } from "./ensure-stream.ts";
import type { Topology } from "./topology.ts";

/** Long enough for any request (120 s) and its redeliveries; short enough to hold no customer data for long. */
const IMAGE_TTL_NANOS = 15 * 60 * 1_000_000_000;

/**
 * Normalized images are stored once per content hash and passed to workers by reference,
 * so two evaluations of one asset (and every sample inside them) share one fetch.
 */
export interface ImageStore {
  put(ref: string, bytes: Uint8Array): Promise<void>;
  /** null when the image expired or never existed. */
  get(ref: string): Promise<Uint8Array | null>;
}

export async function openImageStore(nc: NatsConnection, topo: Topology, { replicas = 1, readTimeoutMs = 10_000 }: { replicas?: number; readTimeoutMs?: number } = {}): Promise<ImageStore> {
  const objm = new Objm(nc);
  // `replicas` applies when this call creates the bucket (JOBS_JETSTREAM_REPLICAS); an existing one is left as it is.
  const store: ObjectStore = await retryWhileElecting(() => objm.create(topo.imageBucket, { ttl: IMAGE_TTL_NANOS, replicas }));
  return {
    async put(ref, bytes) {
      const existing = await store.info(ref).catch(() => null);
      if (existing && !existing.deleted) return;
      await store.putBlob({ name: ref }, bytes);
    },
    async get(ref) {
      // getBlob reads through an ordered push consumer with no time-out of its own; one that
      // stalls would hang the job. Failing lets the job be retried (or time out honestly).
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`reading image ${ref} from the image store took over ${readTimeoutMs} ms`)), readTimeoutMs);
      });
      const read = store.getBlob(ref);
      read.catch(() => {});
      try {
        return await Promise.race([read, timedOut]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
