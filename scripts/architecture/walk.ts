// `node scripts/architecture/walk.ts <file>…`: the source files and folders a reader opens
// to follow one operation, starting at its entry files (a route, the handlers of the jobs it
// sends). An import of named bindings from a package's index is followed to the files that
// define those names, not to the whole package, so the walk counts what the code uses.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadWorkspaces, workspaceOf, type Workspace } from "./import-graph.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const workspaces = new Map(loadWorkspaces(root).map((w) => [w.name, w]));

interface Binding {
  spec: string;
  /** Imported names; null for a namespace or side-effect import (follow the whole module). */
  names: string[] | null;
}

const STATEMENT = /^\s*(import|export)\s+(type\s+)?([^'"`;]*?)\s*from\s+["']([^"']+)["']/gm;

function bindingsOf(text: string): Binding[] {
  const out: Binding[] = [];
  for (const m of text.matchAll(STATEMENT)) {
    const clause = m[3]!;
    const braces = /\{([^}]*)\}/.exec(clause);
    const names = braces ? braces[1]!.split(",").map((n) => n.trim().replace(/^type\s+/, "").split(/\s+as\s+/)[0]!.trim()).filter(Boolean) : null;
    out.push({ spec: m[4]!, names: clause.includes("*") ? null : names });
  }
  return out;
}

function resolveFile(from: string, spec: string): string | null {
  if (spec.startsWith(".")) return relative(root, resolve(root, dirname(from), spec));
  const name = workspaceOf(spec);
  const ws: Workspace | undefined = name ? workspaces.get(name) : undefined;
  return ws?.exports.get(`.${spec.slice(name!.length)}`) ?? null;
}

/** Follows re-exports in a barrel to the file that defines `name`. */
function definingFile(file: string, name: string, depth = 0): string {
  if (depth > 5 || !existsSync(join(root, file))) return file;
  for (const b of bindingsOf(readFileSync(join(root, file), "utf8"))) {
    if (b.names?.includes(name)) {
      const target = resolveFile(file, b.spec);
      if (target) return definingFile(target, name, depth + 1);
    }
  }
  return file;
}

function importsOf(file: string): string[] {
  const out = new Set<string>();
  for (const b of bindingsOf(readFileSync(join(root, file), "utf8"))) {
    const target = resolveFile(file, b.spec);
    if (!target || !existsSync(join(root, target))) continue;
    if (b.names === null || b.names.length === 0) out.add(target);
    else for (const n of b.names) out.add(definingFile(target, n));
  }
  return [...out];
}

const entries = process.argv.slice(2);
if (entries.length === 0) {
  console.error("usage: node scripts/architecture/walk.ts <entry.ts>…");
  process.exit(2);
}
const seen = new Set<string>(entries);
const queue = [...entries];
while (queue.length > 0) {
  for (const next of importsOf(queue.shift()!)) {
    if (!seen.has(next)) {
      seen.add(next);
      queue.push(next);
    }
  }
}
const folders = new Map<string, string[]>();
for (const file of [...seen].sort()) {
  const folder = dirname(file);
  folders.set(folder, [...(folders.get(folder) ?? []), file.slice(folder.length + 1)]);
}
for (const [folder, names] of folders) console.log(`${folder}/  ${names.join(" ")}`);
console.log(`\n${seen.size} files in ${folders.size} folders`);
