import { folderCycles } from "./folder-cycles.ts";
import { importLoops, loadSources, loadWorkspaces, workspaceOf } from "./import-graph.ts";
import { LAYERS, PURE_ALLOWED, type Layer } from "./layers.ts";

/** Node's own modules: allowed anywhere but in a pure layer. */
const isBuiltin = (spec: string) => spec.startsWith("node:");

/** The package a bare specifier names: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageOf(spec: string): string {
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** Every breach of the layering in the tree at `root`, as sentences; empty when clean. */
export function findViolations(root: string): string[] {
  const workspaces = loadWorkspaces(root);
  const layerOf = new Map<string, { index: number; layer: Layer }>();
  LAYERS.forEach((layer, index) => layer.workspaces.forEach((w) => layerOf.set(w, { index, layer })));
  const out: string[] = [];

  for (const ws of workspaces) {
    if (!layerOf.has(ws.name)) out.push(`${ws.dir}: ${ws.name} is in no layer (scripts/architecture/layers.ts)`);
  }

  const files = loadSources(root, workspaces);
  for (const file of files.values()) {
    const own = layerOf.get(file.workspace.name);
    if (!own) continue;
    for (const spec of file.specifiers) {
      if (spec.startsWith(".")) continue;
      const target = workspaceOf(spec);
      if (target) {
        if (target === file.workspace.name) {
          out.push(`${file.path}: imports its own package as ${spec}; use a relative import`);
          continue;
        }
        const their = layerOf.get(target);
        if (!their) continue;
        if (their.index > own.index) out.push(`${file.path}: ${own.layer.name} layer imports ${spec} from the higher ${their.layer.name} layer`);
        if (own.layer.pure && !their.layer.pure) out.push(`${file.path}: pure ${file.workspace.name} imports ${spec}, which does I/O`);
        if (!file.workspace.dependencies.includes(target)) out.push(`${file.path}: imports ${target}, which ${file.workspace.dir}/package.json does not declare`);
        continue;
      }
      if (own.layer.pure && (isBuiltin(spec) || !PURE_ALLOWED.has(packageOf(spec)))) out.push(`${file.path}: pure ${file.workspace.name} imports ${spec}`);
    }
  }

  for (const ws of workspaces) {
    const own = layerOf.get(ws.name);
    if (!own?.layer.pure) continue;
    for (const dep of ws.dependencies) {
      const their = layerOf.get(dep);
      if (their ? !their.layer.pure : !PURE_ALLOWED.has(dep)) out.push(`${ws.dir}/package.json: pure ${ws.name} depends on ${dep}`);
    }
  }

  for (const loop of importLoops(files)) out.push(`import loop: ${loop.join(" → ")}`);
  for (const { parent, folders, examples } of folderCycles(files)) {
    const [forth, back] = examples.map(({ from, to }) => `${from.slice(parent.length + 1)} → ${to.slice(parent.length + 1)}`);
    out.push(`${parent}: folders ${folders[0]}/ and ${folders[1]}/ import each other (${forth}; ${back})`);
  }
  return out;
}
