import { describe, expect, it } from "vitest";
import { channelStdDevs, hasVisualContent } from "../src/visual-content.ts";

describe("channelStdDevs", () => {
  it("measures each interleaved channel on its own", () => {
    const pixels = new Uint8Array([0, 10, 50, 255, 10, 50]);
    expect(channelStdDevs(pixels, 3)).toEqual([127.5, 0, 0]);
  });
});

describe("hasVisualContent", () => {
  it("needs more than 8 px on at least one side", () => {
    expect(hasVisualContent({ width: 8, height: 8 }, [90, 90, 90])).toBe(false);
    expect(hasVisualContent({ width: 9, height: 8 }, [90, 90, 90])).toBe(true);
  });

  it("needs one channel that varies visibly", () => {
    expect(hasVisualContent({ width: 500, height: 500 }, [0.4, 1.9, 0])).toBe(false);
    expect(hasVisualContent({ width: 500, height: 500 }, [0, 0, 2.5])).toBe(true);
  });
});
