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

  it("names two folders that import each other, type-only imports included, once with an import each way", () => {
    const found = findViolations(
      tree({
        "services/gateway": {
          files: {
            "src/durable/requests.ts": 'import { meter } from "../operations/shared/metering.ts";\nexport const start = meter;\n',
            "src/operations/shared/metering.ts": "export const meter = 1;\n",
            "src/operations/rank/route.ts": 'import type { start } from "../../durable/requests.ts";\nexport const route = 1 as unknown as typeof start;\n',
            "src/operations/rank/plan.ts": 'import { route } from "./route.ts";\nimport { meter } from "../shared/metering.ts";\nexport const plan = [route, meter];\n',
          },
        },
      }),
    );
    expect(found).toEqual([
      "services/gateway/src: folders durable/ and operations/ import each other (durable/requests.ts → operations/shared/metering.ts; operations/rank/route.ts → durable/requests.ts)",
    ]);
  });

  it("names a pair of folders nested inside another folder at their own level", () => {
    const found = findViolations(
      tree({
        "packages/cli": {
          files: {
            "src/commands/rank/run.ts": 'import { body } from "../requests/rank-body.ts";\nexport const run = body;\n',
            "src/commands/requests/rank-body.ts": 'import { FLAGS } from "../rank/flags.ts";\nexport const body = FLAGS;\n',
            "src/commands/rank/flags.ts": "export const FLAGS = {};\n",
          },
        },
      }),
    );
    expect(found).toEqual(["packages/cli/src/commands: folders rank/ and requests/ import each other (rank/run.ts → requests/rank-body.ts; requests/rank-body.ts → rank/flags.ts)"]);
  });

  it("accepts a folder importing its own subfolders and back, and an import one way between two folders", () => {
    const found = findViolations(
      tree({
        "services/gateway": {
          files: {
            "src/app.ts": 'import { rank } from "./routes/rank/index.ts";\nexport const app = rank;\n',
            "src/config.ts": "export const config = {};\n",
            "src/routes/rank/index.ts": 'import { handler } from "./handler/handle.ts";\nexport const rank = handler;\n',
            "src/routes/rank/handler/handle.ts": 'import { config } from "../../../config.ts";\nimport { format } from "../../../lib/format.ts";\nexport const handler = [config, format];\n',
            "src/lib/format.ts": "export const format = 1;\n",
          },
        },
      }),
    );
    expect(found).toEqual([]);
  });
});
