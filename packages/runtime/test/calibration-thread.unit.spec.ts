import { afterAll, describe, expect, it } from "vitest";
import type { CalibrationRow } from "@adrank/eval-stats";
import { CalibrationTimeoutError, createCalibrationThread } from "../src/index.ts";

// The calibration thread's deadline: a report past it is given up, whether it was still
// waiting for the thread or running, and the thread is free for the next report at once.

const rows = (outcomes: number): CalibrationRow[] =>
  Array.from({ length: outcomes }, (_, i) => ({ metric: "ctr", goal: i % 2 ? "engagement" : "purchase-intent", requestId: `r${Math.floor(i / 5)}`, score: (i * 7) % 11, scoreBeforeRefine: (i * 5) % 13, value: (i * 3) % 17, impressions: null, simulated: false }));

describe("createCalibrationThread", () => {
  const thread = createCalibrationThread();
  afterAll(() => thread.close());

  it("answers a report within its deadline", async () => {
    const report = await thread.report(rows(50), { deadlineAt: Date.now() + 30_000 });
    expect(report.metrics[0]!.pooled.n_outcomes).toBe(50);
  }, 30_000);

  it("gives up a report whose deadline passes while it runs, and the next report does not wait for it", async () => {
    const started = Date.now();
    // About ten seconds of bootstrap on an idle core: stopped after 300 ms.
    const big = thread.report(rows(30_000), { deadlineAt: started + 300 });
    const next = thread.report(rows(50), { deadlineAt: started + 20_000 });
    await expect(big).rejects.toBeInstanceOf(CalibrationTimeoutError);
    const gaveUpAfter = Date.now() - started;
    expect((await next).metrics[0]!.pooled.n_outcomes).toBe(50);
    const nextAfter = Date.now() - started;
    console.log(`a 30,000-outcome report given up after ${gaveUpAfter} ms (deadline 300 ms); the next report answered at ${nextAfter} ms`);
    expect(gaveUpAfter).toBeLessThan(3_000);
    expect(nextAfter).toBeLessThan(6_000);
  }, 30_000);

  it("never starts a report whose deadline has passed", async () => {
    await expect(thread.report(rows(50), { deadlineAt: Date.now() - 1 })).rejects.toBeInstanceOf(CalibrationTimeoutError);
  });
});
