// Packs the SDK as ONE tarball that installs with plain `npm install <tgz>` in any folder and
// needs nothing from the registry but zod. Prints the tarball's path.
//
//   npm run pack:tarball -w @adrank/sdk [-- <destination folder>]      (default: the current folder)
//
// How: tsc compiles the contracts into dist/contracts/ and the SDK into dist/, and the SDK's
// one bare import, "@adrank/contracts", becomes a relative path. Why not the alternatives:
// - a bundler (rolldown) writes no .d.ts, and the SDK's public types are the contracts'
//   (z.input<typeof RankRequest>), so tsc would have to run and be rewritten anyway;
// - bundleDependencies would pack @adrank/contracts as its own package, but in the workspace
//   it is a symlink whose package.json points at .ts sources, which Node will not run from
//   node_modules, so it would need a second generated package;
// - rewriting packages/sdk/package.json during `npm pack` (prepack/postpack) would, for the
//   length of the pack, point every workspace that imports @adrank/sdk at dist/.
// So everything is staged in a temporary folder with a generated package.json, and the repo
// is never written to except for the tarball. Plain `npm pack` in packages/sdk refuses (see
// its prepack script): it would ship the TypeScript sources.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const SDK = join(dirname(fileURLToPath(import.meta.url)), "..");
const CONTRACTS = join(SDK, "..", "contracts");
const CONTRACTS_SPECIFIER = /(["'])@adrank\/contracts\1/g;
const RELATIVE_TS_SPECIFIER = /(["'])(\.{1,2}\/[^"'\n]+)\.ts\1/g;

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown> & { dependencies?: Record<string, string> };
const filesUnder = (dir: string): string[] => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));

// --noCheck: emit only; the repo's typecheck task is where type errors are reported.
function compile(tsconfig: string, outDir: string) {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", tsconfig, "--outDir", outDir, "--noCheck"], { stdio: "inherit" });
}

/**
 * Imports as an installed package needs them: the SDK's imports of the contracts point at
 * the copy compiled beside it, and the declarations' ".ts" specifiers (tsc rewrites them in
 * the JavaScript only) end in ".js", which every TypeScript version resolves.
 */
function rewriteImports(dist: string) {
  const contracts = join(dist, "contracts");
  for (const file of filesUnder(dist)) {
    if (!/\.(js|d\.ts)$/.test(file)) continue;
    let text = readFileSync(file, "utf8");
    if (file.endsWith(".d.ts")) text = text.replace(RELATIVE_TS_SPECIFIER, "$1$2.js$1");
    if (!file.startsWith(contracts + "/")) {
      let target = relative(dirname(file), join(contracts, "index.js"));
      if (!target.startsWith(".")) target = `./${target}`;
      text = text.replace(CONTRACTS_SPECIFIER, `"${target}"`);
    }
    writeFileSync(file, text);
  }
}

/** Fails unless every import in dist/ is relative, a Node built-in or one of `dependencies`: else the tarball would not run once installed. */
function checkImports(dist: string, dependencies: string[]) {
  const packageOf = (specifier: string) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/");
  const resolvable = (specifier: string) => specifier.startsWith(".") || specifier.startsWith("node:") || builtinModules.includes(specifier) || dependencies.includes(packageOf(specifier));
  // TypeScript's own scanner finds the imports, so an import written inside a string is no finding.
  const findings = filesUnder(dist).flatMap((file) =>
    ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles.filter((i) => !resolvable(i.fileName)).map((i) => `${relative(dist, file)} imports ${i.fileName}`),
  );
  if (findings.length > 0) throw new Error(`the tarball would not run once installed:\n${findings.join("\n")}`);
}

/** The published manifest: compiled entry points, and zod (the contracts' one dependency) as the only dependency. */
function manifest() {
  const sdk = readJson(join(SDK, "package.json"));
  const zod = readJson(join(CONTRACTS, "package.json")).dependencies?.zod;
  if (!zod) throw new Error("packages/contracts/package.json names no zod version");
  const { name, version, description, type, engines } = sdk;
  return { name, version, description, type, engines, exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" }, "./package.json": "./package.json" }, types: "./dist/index.d.ts", files: ["dist", "README.md"], dependencies: { zod } };
}

const destination = resolve(process.argv[2] ?? process.cwd());
const stage = mkdtempSync(join(tmpdir(), "adrank-sdk-pack-"));
try {
  // One compile at a time: CI runs this beside every other workspace's tests on 2 cores.
  compile(join(CONTRACTS, "tsconfig.build.json"), join(stage, "dist", "contracts"));
  compile(join(SDK, "tsconfig.build.json"), join(stage, "dist"));
  rewriteImports(join(stage, "dist"));
  const published = manifest();
  checkImports(join(stage, "dist"), Object.keys(published.dependencies));
  writeFileSync(join(stage, "package.json"), `${JSON.stringify(published, null, 2)}\n`);
  cpSync(join(SDK, "README.md"), join(stage, "README.md"));
  // npm_* variables of an outer `npm run` (its workspace, prefix, package) must not steer this pack.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  const packed = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", destination], { cwd: stage, env, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })) as Array<{ filename: string }>;
  process.stdout.write(`${join(destination, packed[0]!.filename)}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
