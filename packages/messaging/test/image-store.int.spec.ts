import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes, createHash } from "node:crypto";
import { randomUUID } from "node:crypto";
import { connectToNats, openImageStore, topology, type NatsConnection } from "../src/index.ts";

const topo = topology(`t${randomUUID().slice(0, 8)}`);

const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";

describe("image store over real JetStream", () => {
  let nc: NatsConnection;
  beforeAll(async () => {
    nc = await connectToNats({ url: NATS_URL, name: "messaging-test" });
  });
  afterAll(async () => {
    await nc?.drain();
  });

  it("returns the exact bytes stored under a content hash, larger than one NATS message", async () => {
    const store = await openImageStore(nc, topo);
    const bytes = randomBytes(1_500_000);
    const ref = createHash("sha256").update(bytes).digest("hex");
    await store.put(ref, bytes);
    await store.put(ref, bytes); // a second put of the same content is a no-op
    const back = await store.get(ref);
    expect(back).not.toBeNull();
    expect(Buffer.from(back!).equals(bytes)).toBe(true);
  });

  it("answers null for an unknown reference", async () => {
    const store = await openImageStore(nc, topo);
    expect(await store.get("0".repeat(64))).toBeNull();
  });
});
