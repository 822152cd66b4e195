import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expandImagePaths, skippedNote } from "../src/image-paths.ts";
import { UsageError } from "../src/usage-error.ts";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]);
const WEBP = Buffer.from("RIFF\0\0\0\0WEBPVP8 ");
const GIF = Buffer.from("GIF89a");

describe("image arguments", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "adrank-paths-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("expands a folder to the images directly in it, by content, sorted as a person would", async () => {
    const ads = join(dir, "ads");
    await mkdir(join(ads, "old"), { recursive: true });
    await writeFile(join(ads, "ad-10.png"), PNG);
    await writeFile(join(ads, "ad-2.jpg"), JPEG);
    await writeFile(join(ads, "banner"), WEBP); // no extension: its bytes decide
    await writeFile(join(ads, "Cat.gif"), GIF);
    await writeFile(join(ads, "fake.png"), "not a png");
    await writeFile(join(ads, "notes.txt"), "hello");
    await writeFile(join(ads, ".DS_Store"), "");
    await writeFile(join(ads, "old", "ad-1.png"), PNG);
    const { paths, skipped } = await expandImagePaths([ads]);
    expect(paths).toEqual(["ad-2.jpg", "ad-10.png", "banner", "Cat.gif"].map((n) => join(ads, n)));
    expect(skipped).toEqual([{ folder: ads, notImages: ["fake.png", "notes.txt"], folders: ["old"] }]);
    expect(skippedNote(skipped[0]!)).toBe(`adrank: ${ads}: skipped fake.png, notes.txt (not images) and old/ (folders are not searched)`);
  });

  it("keeps files as given, in order, and mixes them with folders", async () => {
    await mkdir(join(dir, "more"));
    await writeFile(join(dir, "more", "b.png"), PNG);
    const { paths, skipped } = await expandImagePaths(["z.png", join(dir, "more"), "a.png"]);
    expect(paths).toEqual(["z.png", join(dir, "more", "b.png"), "a.png"]);
    expect(skipped).toEqual([]);
  });

  it("refuses a folder without images", async () => {
    await mkdir(join(dir, "empty"));
    await expect(expandImagePaths([join(dir, "empty")])).rejects.toThrow(new UsageError(`${join(dir, "empty")}: no PNG, JPEG, WebP or GIF images in this folder`));
    await writeFile(join(dir, "readme.md"), "# hi");
    await expect(expandImagePaths([dir])).rejects.toBeInstanceOf(UsageError);
  });

  it("notes a single skipped file in the singular", () => {
    expect(skippedNote({ folder: "ads", notImages: ["notes.txt"], folders: [] })).toBe("adrank: ads: skipped notes.txt (not an image)");
  });
});
