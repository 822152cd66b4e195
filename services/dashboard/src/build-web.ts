// Builds the console's front end (web/ → dist/) with Vite when dist is missing or older than
// its sources; `--force` always builds. The server calls ensureWebBuilt() at start, so a
// clean checkout serves a current console with no separate step; images build it once.
import { readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const WEB_ROOT = join(here, "..", "web");
export const DIST = join(here, "..", "dist");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export function webIsStale(): boolean {
  try {
    return statSync(join(DIST, "index.html")).mtimeMs < newestMtime(WEB_ROOT);
  } catch {
    return true;
  }
}

export async function ensureWebBuilt(force = false): Promise<boolean> {
  if (!force && !webIsStale()) return false;
  const [{ build }, { default: react }] = await Promise.all([import("vite"), import("@vitejs/plugin-react")]);
  await build({ root: WEB_ROOT, base: "/", logLevel: "warn", plugins: [react()], build: { outDir: DIST, emptyOutDir: true, sourcemap: false } });
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await ensureWebBuilt(process.argv.includes("--force"));
  console.warn(`console built into ${DIST}`);
}
