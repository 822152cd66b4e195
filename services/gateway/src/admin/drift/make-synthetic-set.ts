// Writes the drift watch's synthetic creatives to examples/drift/ (committed; run again only
// to change the set, which changes the batch's hash and so starts a new drift baseline):
//   node services/gateway/src/admin/drift/make-synthetic-set.ts
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { encodeRgbPng } from "@adrank/images";
import { REPOSITORY_ROOT, SYNTHETIC_SET_DIR } from "./reference-batch.ts";
import { SYNTHETIC_CREATIVES } from "./synthetic-set.ts";

const dir = join(REPOSITORY_ROOT, SYNTHETIC_SET_DIR);
mkdirSync(dir, { recursive: true });
for (const c of SYNTHETIC_CREATIVES) {
  const png = encodeRgbPng(c.width, c.height, (x, y) => c.pixel(x, y));
  writeFileSync(join(dir, `${c.name}.png`), png);
  console.log(`${SYNTHETIC_SET_DIR}/${c.name}.png  ${c.width}x${c.height}  ${png.length} bytes`);
}
