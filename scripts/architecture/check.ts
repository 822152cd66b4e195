// `npm run check:architecture`: fails when a workspace imports a higher layer, a pure
// workspace imports something with I/O, a workspace imports another it does not declare,
// any source files import each other in a loop, two folders of one workspace import each
// other (scripts/architecture/folder-cycles.ts), or a goal of the contract lacks its entry in
// ssr's goal table (scripts/architecture/goal-table.ts). Prints one line per finding.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { findGoalTableGaps } from "./goal-table.ts";
import { findViolations } from "./violations.ts";

const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), "../..");
const violations = [...findViolations(root), ...findGoalTableGaps()];
for (const v of violations) console.error(v);
if (violations.length > 0) {
  console.error(`\narchitecture: ${violations.length} finding(s); see docs/architecture.md for the layers`);
  process.exit(1);
}
console.log("architecture: no upward import, no impure dependency in a pure layer, no import loop, no two folders importing each other, every goal in the goal table");
