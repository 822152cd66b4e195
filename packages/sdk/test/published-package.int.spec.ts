import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

// The SDK as a user gets it: `npm run pack:tarball` makes one tarball, which plain
// `npm install <tgz>` puts into an empty project outside the repo (zod is all it fetches),
// and an ordinary ESM script then runs against it on Node 22, the oldest Node the SDK
// promises, and on this Node (24); a TypeScript project type-checks against its .d.ts.

const run = promisify(execFile);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d];
let work: string;
let app: string;
let node22: string;

// npm variables of an outer `npm test` (its prefix, workspace, package) would steer the
// install back into the repo; the CA and proxy settings stay (turbo passes them through).
const npmEnv = () => Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));

beforeAll(async () => {
  // CI installs Node 22 before the tests (scripts/run.sh); a developer's run fetches it here.
  node22 = join(ROOT, ".tools/node22/bin/node");
  if (!existsSync(node22)) {
    if (process.env.CI === "true") throw new Error(`${node22} is missing: scripts/run.sh test installs it with scripts/ensure-node-version.sh 22`);
    // Bounded so that a registry that cannot be reached fails the hook rather than hanging it.
    node22 = (await run("bash", [join(ROOT, "scripts/ensure-node-version.sh"), "22"], { cwd: ROOT, timeout: 120_000 })).stdout.trim();
  }
  work = mkdtempSync(join(tmpdir(), "adrank-sdk-user-"));
  let started = performance.now();
  const packed = await run(process.execPath, [join(ROOT, "packages/sdk/scripts/pack-tarball.ts"), work], { cwd: ROOT, env: npmEnv(), timeout: 90_000 });
  const tarball = packed.stdout.trim().split("\n").at(-1)!;
  console.log(`packed ${tarball} in ${Math.round(performance.now() - started)} ms`);

  app = join(work, "app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "adrank-sdk-user", private: true, type: "module" }));
  started = performance.now();
  await run("npm", ["install", "--no-audit", "--no-fund", tarball], { cwd: app, env: npmEnv(), timeout: 90_000 });
  console.log(`installed it in ${Math.round(performance.now() - started)} ms`);
}, 240_000);
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the SDK as a published package", () => {
  it("installs from its tarball with zod as the only other package", () => {
    expect(readdirSync(join(app, "node_modules")).filter((n) => !n.startsWith(".")).sort()).toEqual(["@adrank", "zod"]);
    expect(readdirSync(join(app, "node_modules/@adrank"))).toEqual(["sdk"]);
    const manifest = JSON.parse(readFileSync(join(app, "node_modules/@adrank/sdk/package.json"), "utf8")) as { dependencies: object; exports: object };
    expect(Object.keys(manifest.dependencies)).toEqual(["zod"]);
    expect(manifest.exports).toMatchObject({ ".": { types: "./dist/index.d.ts", default: "./dist/index.js" } });
  });

  // A tiny API on loopback inside the user's script: one 429 with Retry-After, then a list;
  // and a local image turned into a data URI by the SDK's helper.
  const script = `import { createServer } from "node:http";
import { writeFileSync } from "node:fs";
import { createClient, imageFileToDataUri, ImageError, RateLimitError } from "@adrank/sdk";
writeFileSync("ad.png", Buffer.from(${JSON.stringify(PNG)}));
writeFileSync("notes.txt", "not an image");
const refusal = await imageFileToDataUri("notes.txt").catch((err) => err);
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
console.log(JSON.stringify({ node: process.version, ids: result.data.audiences.map((a) => a.id), attempts: result.attempts, requestId: result.requestId, waitedMs: Date.now() - started, errorClass: typeof RateLimitError, dataUri: (await imageFileToDataUri("ad.png")).slice(0, 27), refusal: refusal instanceof ImageError ? refusal.kind : String(refusal) }));
server.close();
`;

  it.each([
    ["22", () => node22],
    [process.versions.node.split(".")[0]!, () => process.execPath],
  ])("runs on Node %s against a server", async (major, node) => {
    writeFileSync(join(app, "main.mjs"), script);
    const { stdout } = await run(node(), ["main.mjs"], { cwd: app, timeout: 30_000 });
    const out = JSON.parse(stdout.trim()) as { node: string; waitedMs: number };
    expect(out.node).toMatch(new RegExp(`^v${major}\\.`));
    expect(out).toMatchObject({ ids: ["aud_1"], attempts: 2, requestId: "r2", errorClass: "function", dataUri: "data:image/png;base64,iVBOR", refusal: "not-an-image" });
    expect(out.waitedMs).toBeGreaterThanOrEqual(990);
  }, 30_000);

  it("type-checks a TypeScript project that uses it (nodenext, without @types/node)", async () => {
    writeFileSync(
      join(app, "check.ts"),
      `import { createClient, imageFileToDataUri, ValidationError, type RankInput, type RankResponse } from "@adrank/sdk";
const adrank = createClient({ apiKey: "agk_live_example", baseUrl: "http://127.0.0.1:8080" });
const request: RankInput = { assets: [{ url: await imageFileToDataUri("ad.png"), id: "ad" }], audience: { name: "Runners" }, goal: "scroll-stopping" };
const { data }: { data: RankResponse } = await adrank.rank(request);
const score: number | undefined = data.ranked[0]?.score;
const field: string | null = new ValidationError("x", { status: 422, requestId: null, body: null, field: "goal" }).field;
// @ts-expect-error the goal is one of the spec's closed list
await adrank.rank({ ...request, goal: "virality" });
export { score, field };
`,
    );
    // skipLibCheck as `tsc --init` sets it (checking zod's own declarations takes 8 s of CPU);
    // the @ts-expect-error above still fails the check if the SDK's types resolve to `any`.
    writeFileSync(join(app, "tsconfig.json"), JSON.stringify({ compilerOptions: { target: "es2024", lib: ["es2024", "dom"], module: "nodenext", moduleResolution: "nodenext", strict: true, noEmit: true, types: [], skipLibCheck: true }, files: ["check.ts"] }));
    const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
    // tsc prints its errors on stdout: they are the failure's message.
    const errors = await run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: app, timeout: 30_000 }).then(
      ({ stdout }) => stdout,
      (err: { stdout?: string; message: string }) => err.stdout || err.message,
    );
    expect(errors).toBe("");
  }, 30_000);
});
