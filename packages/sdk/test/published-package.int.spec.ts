import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

// The SDK as a user gets it: compiled to JavaScript (Node refuses to strip types under
// node_modules), installed with the contracts and zod as its only dependencies, imported
// from an ordinary ESM script and run on Node 22, the oldest Node it promises.

const run = promisify(execFile);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
let app: string;
let node22: string;

function install(into: string, name: string, pkgDir: string, dependencies: Record<string, string>) {
  const target = join(into, "node_modules", ...name.split("/"));
  mkdirSync(target, { recursive: true });
  writeFileSync(join(target, "package.json"), JSON.stringify({ name, version: "0.1.0", type: "module", exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" } }, dependencies }));
  const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
  return { target, build: () => run(process.execPath, [tsc, "-p", join(pkgDir, "tsconfig.build.json"), "--outDir", join(target, "dist")], { cwd: ROOT }) };
}

beforeAll(async () => {
  // CI installs Node 22 before the tests (scripts/run.sh); a developer's run fetches it here.
  node22 = join(ROOT, ".tools/node22/bin/node");
  if (!existsSync(node22)) {
    if (process.env.CI === "true") throw new Error(`${node22} is missing: scripts/run.sh test installs it with scripts/ensure-node-version.sh 22`);
    // npm needs this machine's CA settings (turbo passes them through, see turbo.json); bounded
    // so that a registry that cannot be reached fails the hook rather than hanging it.
    node22 = (await run("bash", [join(ROOT, "scripts/ensure-node-version.sh"), "22"], { cwd: ROOT, timeout: 120_000 })).stdout.trim();
  }
  app = mkdtempSync(join(tmpdir(), "adrank-sdk-user-"));
  const contracts = install(app, "@adrank/contracts", join(ROOT, "packages/contracts"), { zod: "^4" });
  const sdk = install(app, "@adrank/sdk", join(ROOT, "packages/sdk"), { "@adrank/contracts": "0.1.0" });
  // One compile at a time: CI runs every workspace's tests at once on 2 cores.
  const started = performance.now();
  await contracts.build();
  await sdk.build();
  console.log(`compiled contracts and sdk in ${Math.round(performance.now() - started)} ms`);
  symlinkSync(join(ROOT, "node_modules/zod"), join(app, "node_modules/zod"));
}, 300_000);
afterAll(() => {
  if (app) rmSync(app, { recursive: true, force: true });
});

describe("the SDK as a published package", () => {
  it("builds to JavaScript with declarations and runs on Node 22 against a server", async () => {
    // A tiny API on loopback inside the user's script: one 429 with Retry-After, then a list.
    writeFileSync(
      join(app, "main.mjs"),
      `import { createServer } from "node:http";
import { createClient, RateLimitError } from "@adrank/sdk";
let calls = 0;
const server = createServer((req, res) => {
  calls++;
  if (calls === 1) return res.writeHead(429, { "content-type": "application/json", "retry-after": "1", "x-request-id": "r1" }).end(JSON.stringify({ error: "Slow down.", retryAfter: 1, resetAt: 1 }));
  res.writeHead(200, { "content-type": "application/json", "x-request-id": "r2" }).end(JSON.stringify({ audiences: [{ id: "aud_1", name: "Runners", description: null, demographics: {}, created_at: "2026-11-23T00:00:00.000Z" }] }));
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const client = createClient({ apiKey: "agk_live_example", baseUrl: "http://127.0.0.1:" + server.address().port });
const started = Date.now();
const result = await client.audiences.list();
console.log(JSON.stringify({ node: process.version, ids: result.data.audiences.map((a) => a.id), attempts: result.attempts, requestId: result.requestId, waitedMs: Date.now() - started, errorClass: typeof RateLimitError }));
server.close();
`,
    );
    const { stdout } = await run(node22, ["main.mjs"], { cwd: app, timeout: 30_000 });
    const out = JSON.parse(stdout.trim()) as { node: string; ids: string[]; attempts: number; requestId: string; waitedMs: number; errorClass: string };
    expect(out.node).toMatch(/^v22\./);
    expect(out).toMatchObject({ ids: ["aud_1"], attempts: 2, requestId: "r2", errorClass: "function" });
    expect(out.waitedMs).toBeGreaterThanOrEqual(990);
  }, 60_000);
});
