// `npm run audit:deps`, part of `npm test`: npm audit's high and critical advisories must each
// be fixed or accepted in audit-allowlist.json with a reason and an expiry date.
// Some registries refuse the advisory endpoint (this machine's mirror answers 405). Then no
// advisory can be checked: the run says so loudly and passes, unless
// ADRANK_AUDIT_REQUIRE_ADVISORIES=true, which a CI with the real registry should set.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { advisoriesOf, judgeAdvisories, type AllowlistEntry } from "./allowlist.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const { entries } = JSON.parse(readFileSync(join(root, "audit-allowlist.json"), "utf8")) as { entries: AllowlistEntry[] };

let stdout: string;
try {
  ({ stdout } = await promisify(execFile)("npm", ["audit", "--json", "--audit=true"], { cwd: root, maxBuffer: 64 * 1024 * 1024 }));
} catch (err) {
  // npm audit exits non-zero both when it finds advisories and when it cannot ask.
  stdout = (err as { stdout?: string }).stdout ?? "";
}
let report: { vulnerabilities?: Record<string, never>; message?: string; error?: { summary?: string } };
try {
  report = JSON.parse(stdout);
} catch {
  report = { message: "npm audit printed no report" };
}

if (!report.vulnerabilities) {
  const why = report.message ?? report.error?.summary ?? "no advisories in the answer";
  console.warn(`audit: WARNING: the advisory database could not be read (${why}); NO advisory was checked.`);
  if (process.env.ADRANK_AUDIT_REQUIRE_ADVISORIES === "true") {
    console.error("audit: advisories are required (ADRANK_AUDIT_REQUIRE_ADVISORIES=true)");
    process.exit(1);
  }
  // Entries still expire: an allowlist nobody reviews is worse than none.
  const expired = judgeAdvisories([], entries, new Date().toISOString().slice(0, 10)).problems;
  if (expired.length > 0) {
    console.error(expired.map((p) => `audit: ${p}`).join("\n"));
    process.exit(1);
  }
  process.exit(0);
}

const verdict = judgeAdvisories(advisoriesOf(report), entries, new Date().toISOString().slice(0, 10));
for (const a of verdict.allowed) console.log(`audit: allowed ${a.advisory.severity} ${a.advisory.package} (${a.advisory.advisory}): ${a.reason}`);
if (verdict.problems.length > 0) {
  console.error(`audit: ${verdict.problems.length} problem(s):\n${verdict.problems.map((p) => `  - ${p}`).join("\n")}`);
  process.exit(1);
}
console.log("audit: no unaccepted high or critical advisory");
