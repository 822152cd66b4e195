import { Objm, type ObjectStore } from "@nats-io/obj";
import type { NatsConnection } from "@nats-io/transport-node";
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

export async function openImageStore(nc: NatsConnection, topo: Topology): Promise<ImageStore> {
  const objm = new Objm(nc);
  const store: ObjectStore = await objm.create(topo.imageBucket, { ttl: IMAGE_TTL_NANOS });
  return {
    async put(ref, bytes) {
      const existing = await store.info(ref).catch(() => null);
      if (existing && !existing.deleted) return;
      await store.putBlob({ name: ref }, bytes);
    },
    async get(ref) {
      return store.getBlob(ref);
    },
  };
}
