// Writes the synthetic eval fixture into examples/eval (or the folder given):
//   node scripts/eval/generate-synthetic-fixture.ts [folder]
// Deterministic: the committed files are what this writes, and a unit test holds them equal.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { syntheticFixture } from "./synthetic-fixture.ts";

const folder = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), "../../examples/eval");
const { creatives, files } = syntheticFixture();
// Images of an earlier, larger fixture must not linger beside the new ones.
rmSync(join(folder, "images"), { recursive: true, force: true });
for (const [path, bytes] of files) {
  mkdirSync(dirname(join(folder, path)), { recursive: true });
  writeFileSync(join(folder, path), bytes);
}
const total = [...files.values()].reduce((sum, b) => sum + b.length, 0);
console.log(`wrote ${files.size} files (${creatives.length} images, ${(total / 1024).toFixed(0)} KiB) to ${folder}`);
