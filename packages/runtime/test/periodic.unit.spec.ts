import { describe, expect, it } from "vitest";
import { runPeriodically } from "../src/index.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("runPeriodically", () => {
  it("never runs the task twice at once, goes on after a failure, and waits for the run in progress when stopped", async () => {
    let running = 0;
    let most = 0;
    let runs = 0;
    const errors: unknown[] = [];
    let finished = false;
    const task = runPeriodically(
      async () => {
        running++;
        most = Math.max(most, running);
        runs++;
        await sleep(35);
        running--;
        if (runs === 1) throw new Error("first run fails");
        finished = true;
      },
      10,
      (err) => errors.push(err),
    );
    await sleep(150);
    await task.stop();
    expect(most).toBe(1);
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(errors).toEqual([new Error("first run fails")]);
    expect(running).toBe(0);
    expect(finished).toBe(true);
    const after = runs;
    await sleep(50);
    expect(runs).toBe(after);
  });
});
