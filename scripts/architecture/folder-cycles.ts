// Two folders of one workspace that import each other: a reader cannot understand either
// without the other, so they are one folder in disguise, or a shared piece sits in the wrong
// one. Folders are compared with their siblings, each counted with everything beneath it:
// an import between two folders neither of which holds the other belongs to exactly one
// sibling pair (the two children of their closest common folder), so every such cycle is
// reported once, at the highest level where the two sides part. A folder and its own
// subfolders are never a pair: an index that imports its children is normal.
import type { SourceFile } from "./import-graph.ts";

/** One import, repo-relative paths. */
export interface FolderImport {
  from: string;
  to: string;
}

export interface FolderCycle {
  /** Repo-relative folder holding both, e.g. services/gateway/src. */
  parent: string;
  /** The two sibling folder names under `parent`, sorted. */
  folders: [string, string];
  /** One import from the first folder into the second, and one back. */
  examples: [FolderImport, FolderImport];
}

/** The source root a file lies under: its workspace's src/ or web/src/. */
function sourceRootOf(file: SourceFile): string {
  const web = `${file.workspace.dir}/web/src`;
  return file.path.startsWith(`${web}/`) ? web : `${file.workspace.dir}/src`;
}

/** The folders between a source root and a file, outermost first. */
function foldersOf(path: string, sourceRoot: string): string[] {
  return path.slice(sourceRoot.length + 1).split("/").slice(0, -1);
}

/** Every pair of sibling folders in one source root whose files import each other. */
export function folderCycles(files: ReadonlyMap<string, SourceFile>): FolderCycle[] {
  // parent → "from\0to" folder names → the first import found in that direction
  const crossings = new Map<string, Map<string, FolderImport>>();
  for (const file of [...files.values()].sort((a, b) => a.path.localeCompare(b.path))) {
    const sourceRoot = sourceRootOf(file);
    const mine = foldersOf(file.path, sourceRoot);
    for (const target of [...file.imports].sort()) {
      if (!target.startsWith(`${sourceRoot}/`)) continue;
      const theirs = foldersOf(target, sourceRoot);
      let shared = 0;
      while (shared < mine.length && shared < theirs.length && mine[shared] === theirs[shared]) shared++;
      if (shared === mine.length || shared === theirs.length) continue;
      const parent = [sourceRoot, ...mine.slice(0, shared)].join("/");
      const key = `${mine[shared]}\0${theirs[shared]}`;
      const byDirection = crossings.get(parent) ?? new Map<string, FolderImport>();
      if (!byDirection.has(key)) byDirection.set(key, { from: file.path, to: target });
      crossings.set(parent, byDirection);
    }
  }

  const cycles: FolderCycle[] = [];
  for (const [parent, byDirection] of [...crossings].sort(([a], [b]) => a.localeCompare(b))) {
    for (const [key, forth] of [...byDirection].sort(([a], [b]) => a.localeCompare(b))) {
      const [first, second] = key.split("\0") as [string, string];
      if (first > second) continue;
      const back = byDirection.get(`${second}\0${first}`);
      if (back) cycles.push({ parent, folders: [first, second], examples: [forth, back] });
    }
  }
  return cycles;
}
