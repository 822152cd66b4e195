import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The parts of V8's .cpuprofile (written by `node --cpu-prof`) a summary needs. */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** The process's main script, relative to the repository (which service it was). */
  main: string;
  wallMs: number;
  busyMs: number;
  /** Self time by component (a package, a service's own code, socket writes, GC…), largest first. */
  components: Array<[string, number]>;
  /** Self time by function, largest first. */
  functions: Array<[string, number]>;
}

// Native frames V8 names without a script: what they are, for a reader of the table.
const NATIVE: Record<string, string> = {
  writeBuffer: "socket writes (syscalls)",
  writev: "socket writes (syscalls)",
  writeUtf8String: "socket writes (syscalls)",
  writeLatin1String: "socket writes (syscalls)",
  "(garbage collector)": "garbage collection",
  "(program)": "V8 and native code (program)",
  runMicrotasks: "promise jobs (microtasks)",
};

/** Which component a frame belongs to: a package by name, our own code by workspace. */
export function componentOf(url: string, functionName: string, repoRoot: string): string {
  if (url === "") return NATIVE[functionName] ?? `native: ${functionName || "(anonymous)"}`;
  if (/node:internal\/modules|node:internal\/deps\/amaro/.test(url) || functionName === "compileSourceTextModule") return "module loading (start-up)";
  if (url.startsWith("node:")) return `node:${url.slice(5).split("/")[0]}`;
  const inModules = url.split("node_modules/")[1];
  if (inModules) return inModules.startsWith("@") ? inModules.split("/").slice(0, 2).join("/") : inModules.split("/")[0]!;
  const own = url.replace(/^file:\/\//, "").replace(`${repoRoot}/`, "");
  const [top, name] = own.split("/");
  return top === "packages" ? `@adrank/${name}` : top === "services" ? `${name} service code` : own;
}

/** Reads one profile and sums self time by component and by function (idle time left out). */
export function summarizeProfile(file: string, repoRoot: string): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const components = new Map<string, number>();
  const functions = new Map<string, number>();
  let busyMs = 0;
  let main = "";
  for (const n of profile.nodes) if (!main && /\/(services|scripts)\/.*main\.ts$/.test(n.callFrame.url)) main = n.callFrame.url.replace(/^file:\/\//, "").replace(`${repoRoot}/`, "");
  for (const [id, us] of selfUs) {
    const frame = frames.get(id)!;
    if (frame.functionName === "(idle)") continue;
    const ms = us / 1_000;
    busyMs += ms;
    const component = componentOf(frame.url, frame.functionName, repoRoot);
    components.set(component, (components.get(component) ?? 0) + ms);
    const where = frame.url ? ` ${frame.url.replace(/^file:\/\//, "").replace(/.*node_modules\//, "").replace(`${repoRoot}/`, "")}:${frame.lineNumber + 1}` : "";
    const fn = `${frame.functionName || "(anonymous)"}${where}`;
    functions.set(fn, (functions.get(fn) ?? 0) + ms);
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return { main, wallMs: (profile.endTime - profile.startTime) / 1_000, busyMs, components: sorted(components), functions: sorted(functions) };
}

/** Every profile in a folder (one per process of a run). */
export function summarizeProfiles(dir: string, repoRoot: string): ProfileSummary[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => summarizeProfile(join(dir, f), repoRoot));
}
