import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const MAIN = fileURLToPath(new URL("../src/main.ts", import.meta.url));

describe("panel-voter process start-up", () => {
  it("refuses a sim voter when ADRANK_ALLOW_SIM=false: exit 1, the role named on stderr, no stack trace", () => {
    // The refusal comes before NATS and before any model call: the key and NATS_URL are never used.
    const run = spawnSync(process.execPath, [MAIN], {
      env: {
        ...process.env,
        NATS_URL: "nats://127.0.0.1:1",
        ADRANK_ALLOW_SIM: "false",
        ADRANK_GENERATORS: "openai:gpt-4o-mini,openai:gpt-4o",
        ADRANK_EMBEDDER: "openai:text-embedding-3-small",
        ADRANK_VOTER: "sim:sim-voter",
        OPENAI_API_KEY: "sk-test",
      },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.trimEnd().split("\n")).toEqual([
      "invalid configuration:",
      "  ADRANK_ALLOW_SIM: is false but ADRANK_VOTER uses the offline simulated model (sim), which serves simulated scores: set it to a real provider:model, or set ADRANK_ALLOW_SIM=true to accept simulated scores knowingly",
    ]);
  }, 25_000);
});
