import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes, createHash } from "node:crypto";
import { randomUUID } from "node:crypto";
import { jetstreamManager } from "@nats-io/jetstream";
import { Objm } from "@nats-io/obj";
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

  it("trusts an image it stored for 30 s without asking the server, then looks again and restores one the bucket lost", async () => {
    let clock = Date.now();
    const store = await openImageStore(nc, topo, { now: () => clock });
    const bucket = await new Objm(nc).open(topo.imageBucket);
    const bytes = randomBytes(2_000);
    const ref = createHash("sha256").update(bytes).digest("hex");
    await store.put(ref, bytes);
    // The bucket loses the image behind the store's back (a NATS store wiped).
    await bucket.delete(ref);
    await store.put(ref, bytes);
    expect(await store.get(ref)).toBeNull(); // trusted: the second put did not ask
    clock += 30_001;
    await store.put(ref, bytes);
    expect(Buffer.from((await store.get(ref))!).equals(bytes)).toBe(true);
  });

  it("stores an image again when less than 5 minutes of its 15-minute life are left", async () => {
    const bytes = randomBytes(2_000);
    const ref = createHash("sha256").update(bytes).digest("hex");
    await (await openImageStore(nc, topo)).put(ref, bytes);
    const bucket = await new Objm(nc).open(topo.imageBucket);
    const first = await bucket.info(ref);
    // Another gateway, 10 minutes and a second later: the image has 4 min 59 s left.
    const later = await openImageStore(nc, topo, { now: () => Date.now() + 10 * 60_000 + 1_000 });
    await later.put(ref, bytes);
    const second = await bucket.info(ref);
    expect(second?.nuid).not.toBe(first?.nuid);
    // 9 minutes on, it is left as it is.
    const sooner = await openImageStore(nc, topo, { now: () => Date.now() + 9 * 60_000 });
    await sooner.put(ref, bytes);
    expect((await bucket.info(ref))?.nuid).toBe(second?.nuid);
  });

  it("uploads an image once when many requests put it at the same time", async () => {
    const store = await openImageStore(nc, topo);
    const jsm = await jetstreamManager(nc);
    const lastSeq = async () => (await jsm.streams.info(`OBJ_${topo.imageBucket}`)).state.last_seq;
    const before = await lastSeq();
    const bytes = randomBytes(2_000);
    const ref = createHash("sha256").update(bytes).digest("hex");
    await Promise.all(Array.from({ length: 8 }, () => store.put(ref, bytes)));
    // One upload of a small image is two messages: its one chunk and its metadata.
    expect((await lastSeq()) - before).toBe(2);
  });
});
