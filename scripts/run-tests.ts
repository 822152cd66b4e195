// Runs every workspace's tests through turbo, passes the output through, and ends with one
// line totalling vitest's per-workspace summaries: `tests: N passed, N failed, N skipped`.
// The exit code is turbo's, so a failure anywhere fails the run.
import { spawn } from "node:child_process";

// The system tests are two tasks (test/package.json), so that they fill both of turbo's
// slots once the other workspaces are done instead of running one after the other in one.
const child = spawn("npx", ["turbo", "run", "test", "test:faults", ...process.argv.slice(2)], { stdio: ["ignore", "pipe", "inherit"] });
const totals = { passed: 0, failed: 0, skipped: 0 };
let carry = "";
// eslint-disable-next-line no-control-regex -- stripping terminal colour codes is the point
const ansi = /\x1b\[[0-9;]*m/g;

child.stdout.on("data", (chunk: Buffer) => {
  process.stdout.write(chunk);
  const lines = (carry + chunk.toString("utf8")).split("\n");
  carry = lines.pop() ?? "";
  for (const raw of lines) count(raw.replace(ansi, ""));
});

function count(line: string) {
  // vitest: "      Tests  1 failed | 4 passed | 2 skipped (7)"
  const m = /\bTests\s+(.+)\(\d+\)\s*$/.exec(line);
  if (!m) return;
  for (const [, n, kind] of m[1]!.matchAll(/(\d+) (passed|failed|skipped|todo)/g)) {
    if (kind === "passed" || kind === "failed" || kind === "skipped") totals[kind] += Number(n);
  }
}

child.on("exit", (code, signal) => {
  if (carry) count(carry.replace(ansi, ""));
  console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  process.exit(code ?? (signal ? 1 : 0));
});
