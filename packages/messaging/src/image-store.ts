import { Objm, type ObjectStore } from "@nats-io/obj";
import type { NatsConnection } from "@nats-io/transport-node";
import { retryWhileElecting } from "./ensure-stream.ts";
import type { Topology } from "./topology.ts";

/** Long enough for any request (120 s) and its redeliveries; short enough to hold no customer data for long. */
const IMAGE_TTL_MS = 15 * 60 * 1_000;
const NANOS_PER_MS = 1_000_000;
/**
 * An image is stored again when less than this is left of its life, so that jobs of a request
 * that starts now (120 s at most, with redeliveries) never find it expired.
 */
const REFRESH_BEFORE_EXPIRY_MS = 5 * 60 * 1_000;
/**
 * How long a put trusts that an image it stored or found is still there without asking the
 * server again. Short, because the bucket can lose its data (a NATS node's store wiped):
 * requests then fail for at most this long instead of until the image's expiry.
 */
const TRUST_STORED_MS = 30_000;
const MAX_TRUSTED = 10_000;

/**
 * Normalized images are stored once per content hash and passed to workers by reference,
 * so two evaluations of one asset (and every sample inside them) share one fetch.
 */
export interface ImageStore {
  put(ref: string, bytes: Uint8Array): Promise<void>;
  /** null when the image expired or never existed. */
  get(ref: string): Promise<Uint8Array | null>;
}

export async function openImageStore(
  nc: NatsConnection,
  topo: Topology,
  { replicas = 1, readTimeoutMs = 10_000, now = Date.now }: { replicas?: number; readTimeoutMs?: number; now?: () => number } = {},
): Promise<ImageStore> {
  const objm = new Objm(nc);
  // `replicas` applies when this call creates the bucket (JOBS_JETSTREAM_REPLICAS); an existing one is left as it is.
  const store: ObjectStore = await retryWhileElecting(() => objm.create(topo.imageBucket, { ttl: IMAGE_TTL_MS * NANOS_PER_MS, replicas }));
  // ref → until when a put may skip the server: a campaign's images come back request after
  // request, and asking the server each time was a round trip per asset.
  const trusted = new Map<string, number>();
  const puts = new Map<string, Promise<void>>();
  const trust = (ref: string, until: number) => {
    trusted.delete(ref);
    trusted.set(ref, until);
    if (trusted.size > MAX_TRUSTED) trusted.delete(trusted.keys().next().value!);
  };

  async function storeUnlessFresh(ref: string, bytes: Uint8Array): Promise<void> {
    const existing = await store.info(ref).catch(() => null);
    if (existing && !existing.deleted) {
      const refreshAt = Date.parse(existing.mtime) + IMAGE_TTL_MS - REFRESH_BEFORE_EXPIRY_MS;
      if (now() < refreshAt) {
        trust(ref, Math.min(now() + TRUST_STORED_MS, refreshAt));
        return;
      }
    }
    // New, or too close to its expiry for the jobs about to read it: (re)stored with a fresh life.
    await store.putBlob({ name: ref }, bytes);
    trust(ref, now() + TRUST_STORED_MS);
  }

  return {
    async put(ref, bytes) {
      if ((trusted.get(ref) ?? 0) > now()) return;
      // Two assets (or requests) with one image at once: one look-up, one upload.
      let pending = puts.get(ref);
      if (!pending) {
        pending = storeUnlessFresh(ref, bytes).finally(() => puts.delete(ref));
        puts.set(ref, pending);
      }
      await pending;
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
