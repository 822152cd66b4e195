import { describe, expect, it } from "vitest";
import { jobIdOf } from "../src/operations/rank/evaluate-asset.ts";
import { asSentence } from "../src/operations/shared/prepare-image.ts";
import { validTraceparent } from "../src/http/traceparent.ts";
import { settleMarginMs } from "../src/lifecycle/metered-run.ts";

describe("settleMarginMs", () => {
  it("keeps two ledger round trips and a little for settlement, at most a tenth of the limit", () => {
    expect(settleMarginMs(120_000, 3_000)).toBe(6_500);
    expect(settleMarginMs(4_000, 3_000)).toBe(400);
    expect(settleMarginMs(120_000, 100_000)).toBe(12_000);
  });
});

describe("jobIdOf", () => {
  it("makes ids unique per request, asset and layer, and safe as subject tokens", () => {
    const id = jobIdOf("7f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b", 12, "full-ad-package");
    expect(id).toBe("7f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b_12_full");
    expect(id).toMatch(/^[A-Za-z0-9_-]{1,128}$/);
    expect(jobIdOf("r", 1, "image-only")).not.toBe(jobIdOf("r", 1, "copy-only"));
  });
});

describe("asSentence", () => {
  it("turns an intake fragment into a sentence", () => {
    expect(asSentence("the image is not a PNG")).toBe("The image is not a PNG.");
    expect(asSentence("Already a sentence.")).toBe("Already a sentence.");
    expect(asSentence("  ")).toBe("The image could not be prepared.");
  });
});

describe("validTraceparent", () => {
  it("forwards a well-formed W3C traceparent only", () => {
    const ok = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    expect(validTraceparent(ok)).toBe(ok);
    expect(validTraceparent([ok, "x"])).toBe(ok);
    expect(validTraceparent("00-00000000000000000000000000000000-00f067aa0ba902b7-01")).toBeNull();
    expect(validTraceparent("garbage\r\nX-Injected: 1")).toBeNull();
    expect(validTraceparent(undefined)).toBeNull();
  });
});
