import { readFileSync } from "node:fs";
import { fromRoot } from "./paths.ts";

export interface Instruction {
  keyword: string;
  args: string;
}
export interface Stage {
  /** The image or stage it starts from, as written (`${NODE_IMAGE}`, `runtime`). */
  from: string;
  name: string | undefined;
  instructions: Instruction[];
}
export interface Dockerfile {
  args: Record<string, string>;
  stages: Stage[];
}

/** Enough of the Dockerfile grammar for these checks: line continuations, comments, stages. */
export function parseDockerfile(text = readFileSync(fromRoot("Dockerfile"), "utf8")): Dockerfile {
  const logical = text
    .replace(/\\\r?\n/g, " ")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
  const result: Dockerfile = { args: {}, stages: [] };
  for (const line of logical) {
    const [, keyword = "", args = ""] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const upper = keyword.toUpperCase();
    if (upper === "FROM") {
      const [, from = "", name] = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args) ?? [];
      result.stages.push({ from, name, instructions: [] });
    } else if (result.stages.length === 0 && upper === "ARG") {
      const [name = "", value = ""] = args.split("=", 2);
      result.args[name] = value;
    } else {
      result.stages.at(-1)?.instructions.push({ keyword: upper, args });
    }
  }
  return result;
}

/** The instructions that apply in a stage, its parent stages' first (FROM another stage). */
export function effectiveInstructions(file: Dockerfile, stageName: string): Instruction[] {
  const stage = file.stages.find((s) => s.name === stageName);
  if (!stage) throw new Error(`no stage ${stageName}`);
  const parent = file.stages.some((s) => s.name === stage.from) ? effectiveInstructions(file, stage.from) : [];
  return [...parent, ...stage.instructions];
}

/** The base image a stage ends up on, with build ARG defaults substituted. */
export function baseImage(file: Dockerfile, stageName: string): string {
  const stage = file.stages.find((s) => s.name === stageName);
  if (!stage) throw new Error(`no stage ${stageName}`);
  if (file.stages.some((s) => s.name === stage.from)) return baseImage(file, stage.from);
  return stage.from.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a?: string, b?: string) => file.args[(a ?? b)!] ?? "");
}
