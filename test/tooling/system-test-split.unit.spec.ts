import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/paths.ts";

// The system tests run as two turbo tasks, each given its folders by name: a new folder of
// spec files that neither names would silently never run.
describe("the split of the system tests into two tasks", () => {
  it("runs every folder of spec files in exactly one of them", () => {
    const testDir = join(REPO_ROOT, "test");
    const scripts = (JSON.parse(readFileSync(join(testDir, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    const foldersOf = (script: string) => [...script.matchAll(/\s([a-z0-9-]+)\/(?=\s|$)/g)].map((m) => m[1]!);
    const named = [...foldersOf(scripts.test!), ...foldersOf(scripts["test:faults"]!)];
    const withSpecs = readdirSync(testDir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== "node_modules")
      .filter((d) => readdirSync(join(testDir, d.name), { recursive: true }).some((f) => String(f).endsWith(".spec.ts")))
      .map((d) => d.name);
    expect(named.sort()).toEqual(withSpecs.sort());
  });
});
