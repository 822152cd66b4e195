import { describe, expect, it } from "vitest";
import { textStance } from "../src/index.ts";
import { targetStance } from "../src/sim/answer-text.ts";
import { clauseStance } from "../src/sim/stance.ts";
import { composeStance, type Driver } from "../src/sim/stance-wording.ts";

const problem = (text: string): Driver => ({ text, tone: -1 });
const strength = (text: string): Driver => ({ text, tone: 1 });

const DRIVER_SETS: Record<string, Driver[]> = {
  "a problem and a strength": [problem("the contrast is modest"), strength("the layout is clean and uncluttered")],
  "two strengths": [strength("the colours are vivid"), strength("the details are crisp")],
  "two problems": [problem("the image is dark"), problem("the image looks soft or blurred")],
  "one problem": [problem("the copy shouts in capital letters")],
  "nothing to react to": [],
};

/** Targets −1..1 in steps of 0.005. */
const TARGETS = Array.from({ length: 401 }, (_, i) => -1 + i / 200);
const stanceOf = (sentences: string[]) => textStance(sentences.join(" ")).value;

describe("graded stance wording", () => {
  for (const [name, drivers] of Object.entries(DRIVER_SETS)) {
    it(`follows the target in steps of about a hundredth, with ${name}`, () => {
      const reached = TARGETS.map((t) => stanceOf(composeStance(t, "buy this product", drivers)));
      const errors = reached.map((s, i) => Math.abs(s - TARGETS[i]!));
      // Close everywhere, very close on average: no ladder of a few fixed steps.
      expect(Math.max(...errors)).toBeLessThanOrEqual(0.04);
      expect(errors.reduce((a, b) => a + b, 0) / errors.length).toBeLessThan(0.01);
      expect(new Set(reached.map((s) => s.toFixed(3))).size).toBeGreaterThan(120);
    });
  }

  it("keeps each driver's direction, a verdict on the target's side and a closing lean that agrees with it", () => {
    const drivers = DRIVER_SETS["a problem and a strength"]!;
    for (const t of TARGETS) {
      const sentences = composeStance(t, "trust this brand", drivers);
      const [verdict, ...rest] = sentences;
      expect(verdict).toMatch(/^I .*trust this brand\.$/);
      const v = clauseStance(verdict!) ?? 0;
      expect(v * t).toBeGreaterThanOrEqual(0);
      for (const s of rest) {
        if (s.startsWith("The contrast is modest")) expect(s).not.toMatch(/\bappealing/);
        if (s.startsWith("The layout is clean")) expect(s).not.toMatch(/unappealing/);
        if (s.startsWith("On balance")) expect(Math.abs((clauseStance(s) ?? 0) - v)).toBeLessThanOrEqual(0.25 + 1e-9);
      }
    }
  });

  it("never writes a number, and is deterministic", () => {
    for (const t of TARGETS) {
      const text = composeStance(t, "click on this ad", DRIVER_SETS["two problems"]!).join(" ");
      expect(text).not.toMatch(/\d/);
      expect(composeStance(t, "click on this ad", DRIVER_SETS["two problems"]!).join(" ")).toBe(text);
    }
  });

  it("maps q 1..5 onto the whole stance line, in order", () => {
    expect(targetStance(1)).toBe(-1);
    expect(targetStance(3)).toBe(0);
    expect(targetStance(5)).toBe(1);
    for (let q = 1; q < 5; q += 0.05) expect(targetStance(q + 0.05)).toBeGreaterThan(targetStance(q));
  });
});
