import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const MAIN = fileURLToPath(new URL("../src/main.ts", import.meta.url));

describe("scorer process start-up", () => {
  it("refuses the sim models when ADRANK_ALLOW_SIM=false: exit 1, the reason on stderr, no stack trace", () => {
    // The refusal comes before NATS: nothing listens on port 1, so a scorer that got further would not exit 1 with this.
    const run = spawnSync(process.execPath, [MAIN], {
      env: {
        ...process.env,
        NATS_URL: "nats://127.0.0.1:1",
        ADRANK_ALLOW_SIM: "false",
        ADRANK_GENERATORS: "sim:sim-gen-a,sim:sim-gen-b",
        ADRANK_EMBEDDER: "sim:sim-embed",
        ADRANK_VOTER: "sim:sim-voter",
      },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.trimEnd().split("\n")).toEqual([
      "invalid configuration:",
      "  ADRANK_ALLOW_SIM: is false but ADRANK_GENERATORS, ADRANK_EMBEDDER and ADRANK_VOTER use the offline simulated model (sim), which serves simulated scores: set them to a real provider:model, or set ADRANK_ALLOW_SIM=true to accept simulated scores knowingly",
    ]);
  }, 25_000);
});
