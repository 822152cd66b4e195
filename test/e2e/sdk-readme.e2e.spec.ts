import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "../support/paths.ts";
import { startStack, type Stack } from "../support/stack.ts";

// The SDK's README promises that every ```ts example runs as written and prints the ```text
// block after it (`…` standing for what differs between runs). Each runs here through Node's
// type stripping against a real stack, from the repo root so that examples/ads/ is there.

const run = promisify(execFile);

interface Example {
  line: number;
  code: string;
  prints: string[];
}

/** Every ```ts block of the markdown with the ```text block that follows it (blank lines between at most). */
function readmeExamples(markdown: string): Example[] {
  const examples: Example[] = [];
  const fence = /^```(\w*)\n([\s\S]*?)^```$/gm;
  let pending: Example | null = null;
  let pendingEnd = 0;
  for (let m = fence.exec(markdown); m; m = fence.exec(markdown)) {
    const [, lang, body] = m;
    if (lang === "ts") {
      pending = { line: markdown.slice(0, m.index).split("\n").length, code: body!, prints: [] };
      examples.push(pending);
      pendingEnd = m.index + m[0].length;
    } else if (lang === "text" && pending && markdown.slice(pendingEnd, m.index).trim() === "") {
      pending.prints = body!.trimEnd().split("\n");
      pending = null;
    }
  }
  return examples;
}

/** A printed line as the README shows it; `…` matches anything on the line. */
const linePattern = (shown: string) => new RegExp(`^${shown.split("…").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`);

const examples = readmeExamples(readFileSync(join(REPO_ROOT, "packages/sdk/README.md"), "utf8"));

describe("the SDK README's examples", () => {
  let stack: Stack;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    stack = await startStack({ logLevel: "warn" });
    const account = await stack.createAccount({ credits: 100 });
    env = { ...process.env, ADRANK_API_KEY: account.key, ADRANK_BASE_URL: stack.baseUrl };
    // A user's project outside the repo, its @adrank/sdk linked to the workspace's sources
    // (packages/sdk/test/published-package.int.spec.ts covers the packed tarball).
    dir = mkdtempSync(join(tmpdir(), "adrank-sdk-readme-"));
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "readme-examples", private: true, type: "module" }));
    mkdirSync(join(dir, "node_modules/@adrank"), { recursive: true });
    symlinkSync(join(REPO_ROOT, "packages/sdk"), join(dir, "node_modules/@adrank/sdk"));
  }, 120_000);
  afterAll(async () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    await stack?.stop();
  }, 30_000);

  it("has runnable examples, each followed by what it prints", () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
    for (const example of examples) expect(example.prints, `the example at README line ${example.line}`).not.toEqual([]);
  });

  it.each(examples.map((example, i) => [i + 1, example.line, example] as const))("example %i (README line %i) exits 0 and prints what the README shows", async (n, _line, example) => {
    const file = join(dir, `example-${n}.ts`);
    writeFileSync(file, example.code);
    const { stdout, stderr } = await run(process.execPath, [file], { cwd: REPO_ROOT, env, timeout: 45_000 }).catch((err: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`example ${n} failed: ${err.stderr || err.message}\n${err.stdout ?? ""}`, { cause: err });
    });
    const printed = stdout.trimEnd().split("\n");
    expect(printed, stderr).toHaveLength(example.prints.length);
    example.prints.forEach((shown, i) => expect(printed[i], `line ${i + 1}`).toMatch(linePattern(shown)));
  }, 60_000);
});
