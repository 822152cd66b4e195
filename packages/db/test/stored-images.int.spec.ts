import { createHash, randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadWithImages, requestsRepository, storeWithImages } from "../src/repositories/index.ts";
import { createTestDatabase, type TestDatabase } from "../src/testing.ts";

// Data-URI images kept once by content hash, however many stored bodies hold them, and put
// back byte for byte.

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase("dbimages");
});
afterAll(async () => {
  await t?.destroy();
});

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const image = (type = "image/png") => `data:${type};base64,${randomBytes(1_500).toString("base64")}`;

/** A running request row for images to be linked to. */
async function request(): Promise<string> {
  const requestId = randomUUID();
  await requestsRepository(t.db).start({ requestId, accountId: "acct_img", keyId: "key_img", operation: "rank", mode: "sync", fingerprint: "fp", progressTotal: 1, leaseOwner: "gw", leaseMs: 15_000 }, null, 24);
  return requestId;
}

const rowsFor = (names: string[]) => t.db.selectFrom("stored_images").select(["name", "data"]).where("name", "in", names).orderBy("name").execute();
const linksOf = (requestId: string) => t.db.selectFrom("api_request_images").select("image_name").where("request_id", "=", requestId).orderBy("image_name").execute();

describe("stored images", () => {
  it("stores each distinct image once, named by its sha256, and loads the text back byte for byte", async () => {
    const [png, jpeg] = [image(), image("image/jpeg")];
    const text = JSON.stringify({ ranked: [{ asset_url: png }, { asset_url: jpeg }, { asset_url: png }], note: "é 🔑 \u0001" });
    const requestId = await request();
    const template = await storeWithImages(t.db, requestId, text);
    expect(template).not.toContain("data:image");
    expect(await rowsFor([sha256(png), sha256(jpeg)])).toEqual([{ name: sha256(png), data: png }, { name: sha256(jpeg), data: jpeg }].sort((a, b) => a.name.localeCompare(b.name)));
    expect((await linksOf(requestId)).map((l) => l.image_name)).toEqual([sha256(png), sha256(jpeg)].sort());
    const loaded = await loadWithImages(t.db, template);
    expect(Buffer.from(loaded).equals(Buffer.from(text))).toBe(true);
  });

  it("shares one copy between two requests, and between a request's body and its response", async () => {
    const shared = image();
    const first = await request();
    const second = await request();
    await storeWithImages(t.db, first, JSON.stringify({ assets: [{ url: shared }] }));
    await storeWithImages(t.db, first, JSON.stringify({ ranked: [{ asset_url: shared }] }));
    await storeWithImages(t.db, second, JSON.stringify({ ranked: [{ asset_url: shared }] }));
    expect(await rowsFor([sha256(shared)])).toHaveLength(1);
    expect(await linksOf(first)).toEqual([{ image_name: sha256(shared) }]);
    expect(await linksOf(second)).toEqual([{ image_name: sha256(shared) }]);
  });

  it("leaves text without long data URIs as it is, storing nothing", async () => {
    const requestId = await request();
    const text = JSON.stringify({ asset_url: "data:image/png;base64,iVBORw0KGgo=", other: "https://cdn.example.com/a.png" });
    expect(await storeWithImages(t.db, requestId, text)).toBe(text);
    expect(await linksOf(requestId)).toEqual([]);
    expect(await loadWithImages(t.db, text)).toBe(text);
  });

  it("stores images inside a transaction that rolls back with it", async () => {
    const lost = image();
    const requestId = await request();
    await expect(
      t.db.transaction().execute(async (trx) => {
        await storeWithImages(trx, requestId, JSON.stringify({ url: lost }));
        throw new Error("the request's write failed");
      }),
    ).rejects.toThrow("the request's write failed");
    expect(await rowsFor([sha256(lost)])).toEqual([]);
  });

  it("refuses to load a body whose image row is gone rather than answer another body", async () => {
    const gone = image();
    const requestId = await request();
    const template = await storeWithImages(t.db, requestId, JSON.stringify({ url: gone }));
    await t.db.deleteFrom("api_request_images").where("request_id", "=", requestId).execute();
    await t.db.deleteFrom("stored_images").where("name", "=", sha256(gone)).execute();
    await expect(loadWithImages(t.db, template)).rejects.toThrow(`stored image ${sha256(gone)} is missing`);
  });

  it("keeps an image a request links to: it cannot be deleted from under it", async () => {
    const kept = image();
    const requestId = await request();
    await storeWithImages(t.db, requestId, JSON.stringify({ url: kept }));
    await expect(t.db.deleteFrom("stored_images").where("name", "=", sha256(kept)).execute()).rejects.toThrow(/foreign key/);
    // Deleting the request drops its links, and then the image may go.
    await t.db.deleteFrom("api_requests").where("request_id", "=", requestId).execute();
    expect(await linksOf(requestId)).toEqual([]);
    await t.db.deleteFrom("stored_images").where("name", "=", sha256(kept)).execute();
    expect(await rowsFor([sha256(kept)])).toEqual([]);
  });
});
