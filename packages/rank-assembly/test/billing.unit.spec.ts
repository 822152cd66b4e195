import { describe, expect, it } from "vitest";
import { billedEvaluations, billedEvaluationsOfBatch, type AssetOutcome } from "../src/index.ts";
import { copyOnly, fail, failed, imageOnly, ok, withCopy } from "./fixtures.ts";

// The spec's billing table, row by row.
describe("billedEvaluations", () => {
  it("bills an image-only asset 1", () => {
    expect(billedEvaluations(imageOnly(3))).toBe(1);
  });

  it("bills an asset with copy_context whose ablation succeeded 2", () => {
    expect(billedEvaluations(withCopy(3.4, ok(3)))).toBe(2);
  });

  it("bills an asset with copy_context whose ablation failed 1", () => {
    expect(billedEvaluations(withCopy(3.4, fail("model timed out")))).toBe(1);
  });

  it("bills a copy-only asset 1", () => {
    expect(billedEvaluations(copyOnly(2.5))).toBe(1);
  });

  it("bills a failed asset 0", () => {
    expect(billedEvaluations(failed("The image could not be fetched."))).toBe(0);
    expect(billedEvaluations({ kind: "evaluated", layer: "image-only", primary: fail("x"), ablation: null })).toBe(0);
  });

  it("bills nothing when the full ad package failed even though its ablation succeeded", () => {
    const outcome: AssetOutcome = { kind: "evaluated", layer: "full-ad-package", primary: fail("model refused"), ablation: ok(3) };
    expect(billedEvaluations(outcome)).toBe(0);
  });

  it("sums a batch", () => {
    expect(billedEvaluationsOfBatch([imageOnly(3), withCopy(3, ok(2)), withCopy(3, fail("x")), failed("y"), copyOnly(2)])).toBe(1 + 2 + 1 + 0 + 1);
    expect(billedEvaluationsOfBatch([])).toBe(0);
  });
});
