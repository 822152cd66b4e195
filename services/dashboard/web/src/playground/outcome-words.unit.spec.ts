import { describe, expect, it } from "vitest";
import { panelSentence, signed, voteOrder } from "./outcome-words.ts";

describe("outcome words", () => {
  it("names both images of a panel and its votes", () => {
    expect(panelSentence({ winnerAssetId: "summer.png", loserAssetId: "spring.png", votesFor: 4, votesTotal: 5 })).toBe("Panel: summer.png beat spring.png, 4 of 5 votes");
  });

  it("says which image a voter saw first", () => {
    expect(voteOrder({ order: "ab" }, "summer.png", "spring.png")).toBe("saw summer.png first");
    expect(voteOrder({ order: "ba" }, "summer.png", "spring.png")).toBe("saw spring.png first");
  });

  it("signs a copy lift with a real minus and never a negative zero", () => {
    expect(signed(0.123)).toBe("+0.12");
    expect(signed(-0.14)).toBe("−0.14");
    expect(signed(-0.001)).toBe("0.00");
    expect(signed(0)).toBe("0.00");
  });
});
