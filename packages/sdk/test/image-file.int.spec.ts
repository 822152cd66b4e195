import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ImageError, imageFileToDataUri, MAX_IMAGE_BYTES } from "../src/index.ts";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "adrank-sdk-image-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const failure = (p: Promise<unknown>) => p.then(() => expect.fail("resolved"), (err: unknown) => err);

describe("a local image file as a data URI", () => {
  it("reads an image whatever its name says", async () => {
    writeFileSync(join(dir, "hero.jpg"), PNG);
    expect(await imageFileToDataUri(join(dir, "hero.jpg"))).toBe(`data:image/png;base64,${PNG.toString("base64")}`);
  });

  it("names the file that is missing, a folder, not an image or too big", async () => {
    const missing = join(dir, "missing.png");
    writeFileSync(join(dir, "notes.png"), "just text");
    // Sparse: the size is checked before a byte is read.
    writeFileSync(join(dir, "huge.png"), PNG);
    truncateSync(join(dir, "huge.png"), MAX_IMAGE_BYTES + 5 * 1024 * 1024);
    const cases = [
      [missing, "unreadable", `The image file ${missing} does not exist.`],
      [dir, "unreadable", `The image file ${dir} is not a file.`],
      [join(dir, "notes.png"), "not-an-image", `The image file ${join(dir, "notes.png")} is not a PNG, JPEG, WebP or GIF image.`],
      [join(dir, "huge.png"), "too-large", `The image file ${join(dir, "huge.png")} is 15.0 MiB, more than the 10 MiB the API accepts for one image.`],
    ] as const;
    for (const [path, kind, message] of cases) {
      const err = await failure(imageFileToDataUri(path));
      expect(err).toBeInstanceOf(ImageError);
      expect(err).toMatchObject({ kind, path, message });
    }
  });

  it("reads the repository's example ads", async () => {
    const uri = await imageFileToDataUri(new URL("../../../examples/ads/spring-sale.png", import.meta.url).pathname);
    expect(uri).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
  });
});
