// The source import graph of the workspaces: which file imports which, inside a workspace
// (relative imports) and across them (@adrank/* through each package's `exports`). Read
// with a regex rather than a compiler: imports in this tree are plain static `import` /
// `export … from` lines, and the check must stay fast enough to run on every test.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export interface Workspace {
  /** The npm name, e.g. @adrank/messaging. */
  name: string;
  /** Repo-relative folder, e.g. packages/messaging. */
  dir: string;
  /** Declared dependencies (dependencies, not devDependencies). */
  dependencies: string[];
  /** Subpath ("." or "./testing") to repo-relative file. */
  exports: Map<string, string>;
}

export interface SourceFile {
  /** Repo-relative path. */
  path: string;
  workspace: Workspace;
  /** Specifiers as written (bare and relative). */
  specifiers: string[];
  /** Resolved repo-relative paths of imported source files (relative and @adrank/*). */
  imports: string[];
}

const IMPORT = /^\s*(?:import|export)\s+(?:type\s+)?(?:[^'"`;]*?\sfrom\s+)?["']([^"']+)["']/gm;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

export function loadWorkspaces(root: string): Workspace[] {
  const out: Workspace[] = [];
  for (const group of ["packages", "services"]) {
    if (!existsSync(join(root, group))) continue;
    for (const name of readdirSync(join(root, group))) {
      const dir = join(group, name);
      const manifest = join(root, dir, "package.json");
      if (!existsSync(manifest)) continue;
      const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { name: string; dependencies?: Record<string, string>; exports?: Record<string, string> | string };
      const exportsMap = new Map<string, string>();
      const exp = typeof pkg.exports === "string" ? { ".": pkg.exports } : (pkg.exports ?? {});
      for (const [sub, file] of Object.entries(exp)) exportsMap.set(sub, join(dir, file));
      out.push({ name: pkg.name, dir, dependencies: Object.keys(pkg.dependencies ?? {}), exports: exportsMap });
    }
  }
  return out;
}

/** Every non-test TypeScript source file under each workspace's src/ (and web/src/). */
export function loadSources(root: string, workspaces: readonly Workspace[]): Map<string, SourceFile> {
  const files = new Map<string, SourceFile>();
  for (const ws of workspaces) {
    for (const srcDir of ["src", "web/src"]) {
      const abs = join(root, ws.dir, srcDir);
      if (!existsSync(abs)) continue;
      for (const file of walkDir(abs)) {
        if (!/\.tsx?$/.test(file) || file.endsWith(".d.ts")) continue;
        const path = relative(root, file);
        const text = readFileSync(file, "utf8");
        const specifiers = [...text.matchAll(IMPORT), ...text.matchAll(DYNAMIC)].map((m) => m[1]!);
        files.set(path, { path, workspace: ws, specifiers, imports: [] });
      }
    }
  }
  const byName = new Map(workspaces.map((w) => [w.name, w]));
  for (const file of files.values()) {
    for (const spec of file.specifiers) {
      const target = resolveSpecifier(root, file.path, spec, byName);
      if (target && files.has(target)) file.imports.push(target);
    }
  }
  return files;
}

/** The workspace an import specifier names (`@adrank/db/repositories` → @adrank/db), or null. */
export function workspaceOf(spec: string): string | null {
  const m = /^(@adrank\/[^/]+)/.exec(spec);
  return m ? m[1]! : null;
}

function resolveSpecifier(root: string, from: string, spec: string, byName: ReadonlyMap<string, Workspace>): string | null {
  if (spec.startsWith(".")) return relative(root, resolve(root, dirname(from), spec));
  const name = workspaceOf(spec);
  if (!name) return null;
  const ws = byName.get(name);
  if (!ws) return null;
  return ws.exports.get(`.${spec.slice(name.length)}`) ?? null;
}

function* walkDir(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    if (entry === "node_modules" || entry === "dist") continue;
    const abs = join(dir, entry);
    if (statSync(abs).isDirectory()) yield* walkDir(abs);
    else yield abs;
  }
}

/** Strongly connected components with more than one file (or a self-import): the import loops. */
export function importLoops(files: ReadonlyMap<string, SourceFile>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of files.get(v)!.imports) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || files.get(v)!.imports.includes(v)) loops.push(component.sort());
    }
  };
  for (const v of files.keys()) if (!indexOf.has(v)) visit(v);
  return loops;
}

/** Files reachable from `entry` through imports, entry included. */
export function reachableFrom(files: ReadonlyMap<string, SourceFile>, entry: string): string[] {
  const seen = new Set<string>([entry]);
  const queue = [entry];
  while (queue.length > 0) {
    for (const next of files.get(queue.shift()!)?.imports ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return [...seen];
}
