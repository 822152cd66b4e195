import type { ImageStore } from "./image-store.ts";

/**
 * Normalized images by content hash, kept in memory in front of the shared store so the
 * second evaluation of an asset (and every one of its samples) reuses one download.
 * Bounded by total bytes, least recently used first out.
 */
export function createImageCache(store: ImageStore, maxBytes: number) {
  const entries = new Map<string, Uint8Array>();
  let bytes = 0;
  const inFlight = new Map<string, Promise<Uint8Array | null>>();

  const remember = (ref: string, data: Uint8Array) => {
    if (data.byteLength > maxBytes) return;
    entries.set(ref, data);
    bytes += data.byteLength;
    for (const [key, value] of entries) {
      if (bytes <= maxBytes) break;
      entries.delete(key);
      bytes -= value.byteLength;
    }
  };

  return {
    async get(ref: string): Promise<Uint8Array | null> {
      const hit = entries.get(ref);
      if (hit) {
        entries.delete(ref);
        entries.set(ref, hit);
        return hit;
      }
      // Two evaluations of one asset usually arrive together: fetch once.
      let pending = inFlight.get(ref);
      if (!pending) {
        pending = store.get(ref).finally(() => inFlight.delete(ref));
        inFlight.set(ref, pending);
      }
      const data = await pending;
      if (data) remember(ref, data);
      return data;
    },
    size: () => ({ entries: entries.size, bytes }),
  };
}
export type ImageCache = ReturnType<typeof createImageCache>;
