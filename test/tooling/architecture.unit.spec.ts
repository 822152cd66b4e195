import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findViolations } from "../../scripts/architecture/violations.ts";
import { REPO_ROOT } from "../support/paths.ts";

let root = "";
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A tree of workspaces named like the real ones, with the given files. */
function tree(workspaces: Record<string, { deps?: string[]; files: Record<string, string> }>): string {
  root = mkdtempSync(join(tmpdir(), "layers-"));
  for (const [dir, ws] of Object.entries(workspaces)) {
    const name = `@adrank/${dir.split("/")[1]!.replace(/^(gateway|ledger)$/, (n) => (n === "ledger" ? "ledger-service" : n))}`;
    const deps = Object.fromEntries((ws.deps ?? []).map((d) => [d, "*"]));
    mkdirSync(join(root, dir, "src"), { recursive: true });
    writeFileSync(join(root, dir, "package.json"), JSON.stringify({ name, exports: { ".": "./src/index.ts" }, dependencies: deps }));
    for (const [file, text] of Object.entries(ws.files)) {
      mkdirSync(dirname(join(root, dir, file)), { recursive: true });
      writeFileSync(join(root, dir, file), text);
    }
  }
  return root;
}

describe("the architecture check", () => {
  it("passes the tree as it is", () => {
    expect(findViolations(REPO_ROOT)).toEqual([]);
  });

  it("names an upward import, and a pure package that depends on I/O", () => {
    const found = findViolations(
      tree({
        "packages/messaging": { files: { "src/index.ts": "export const send = 1;\n" } },
        "packages/rank-assembly": { deps: ["@adrank/messaging"], files: { "src/index.ts": 'import { send } from "@adrank/messaging";\nexport const x = send;\n' } },
      }),
    );
    expect(found).toContain("packages/rank-assembly/src/index.ts: rules layer imports @adrank/messaging from the higher infrastructure layer");
    expect(found).toContain("packages/rank-assembly/package.json: pure @adrank/rank-assembly depends on @adrank/messaging");
  });

  it("names an import of Node or a library from a pure package, and an undeclared workspace", () => {
    const found = findViolations(
      tree({
        "packages/contracts": { files: { "src/index.ts": "export const c = 1;\n" } },
        "packages/ssr": { files: { "src/index.ts": 'import { readFileSync } from "node:fs";\nimport { c } from "@adrank/contracts";\nexport const r = [readFileSync, c];\n' } },
      }),
    );
    expect(found).toEqual(["packages/ssr/src/index.ts: pure @adrank/ssr imports node:fs", "packages/ssr/src/index.ts: imports @adrank/contracts, which packages/ssr/package.json does not declare"]);
  });

  it("names a loop between files, however long", () => {
    const found = findViolations(
      tree({
        "services/gateway": {
          files: {
            "src/index.ts": 'import "./app.ts";\n',
            "src/app.ts": 'import { r } from "./routes/rank.ts";\nexport const app = r;\n',
            "src/routes/rank.ts": 'import { helper } from "./shared.ts";\nexport const r = helper;\n',
            "src/routes/shared.ts": 'import type { app } from "../app.ts";\nexport const helper = 1 as unknown as typeof app;\n',
          },
        },
      }),
    );
    expect(found).toEqual(["import loop: services/gateway/src/app.ts → services/gateway/src/routes/rank.ts → services/gateway/src/routes/shared.ts"]);
  });
});
