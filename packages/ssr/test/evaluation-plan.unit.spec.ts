import { describe, expect, it } from "vitest";
import { GENERATOR_SAMPLES_PER_EVALUATION, ScoreLayer } from "@adrank/contracts";
import { buildGeneratorPrompt, buildPersona, planEvaluation, type PersonaInputLike } from "../src/index.ts";

const persona: PersonaInputLike = {
  audience: { name: "Trail runners", demographics: {} },
  goal: "purchase-intent",
  assetType: "Social Media Post",
  platform: "instagram",
  campaignType: null,
};
const copy = { adHeadline: "Run further on lighter shoes", adBody: "Free returns for 60 days." };

describe("planEvaluation", () => {
  it("lists six generator calls: three repetitions, each asking generator 0 then generator 1", () => {
    const { calls } = planEvaluation({ persona, layer: "full-ad-package", copy });
    expect(calls).toHaveLength(GENERATOR_SAMPLES_PER_EVALUATION);
    expect(calls.map((c) => [c.repetition, c.generatorIndex])).toEqual([
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
      [2, 0],
      [2, 1],
    ]);
  });

  it("gives each call the generator prompt of its repetition and generator, for the job's persona and goal", () => {
    for (const layer of ScoreLayer.options) {
      const plan = planEvaluation({ persona, layer, copy });
      for (const call of plan.calls) {
        const expected = buildGeneratorPrompt({ persona: buildPersona(persona), layer, copy: plan.copy, goal: persona.goal, repetition: call.repetition, generatorIndex: call.generatorIndex });
        expect(call.prompt).toEqual(expected);
      }
      // Repetitions are independent draws (each says which one it is), and the two generators
      // of a repetition sit in different seats: six different prompts.
      expect(new Set(plan.calls.map((c) => c.prompt.user)).size).toBe(6);
    }
  });

  it("shows image and copy in the full ad package", () => {
    const plan = planEvaluation({ persona, layer: "full-ad-package", copy });
    expect(plan.showsImage).toBe(true);
    expect(plan.copy).toEqual(copy);
    for (const call of plan.calls) expect(call.prompt.user).toContain(copy.adHeadline);
  });

  it("withholds the copy from the image-only ablation, prompts and all", () => {
    const plan = planEvaluation({ persona, layer: "image-only", copy });
    expect(plan.showsImage).toBe(true);
    expect(plan.copy).toBeNull();
    for (const call of plan.calls) {
      expect(call.prompt.user).not.toContain(copy.adHeadline);
      expect(call.prompt.user).not.toContain(copy.adBody);
    }
    // With or without copy, the ablation asks the same questions.
    expect(plan).toEqual(planEvaluation({ persona, layer: "image-only", copy: null }));
  });

  it("shows no image in the copy-only layer and keeps the copy", () => {
    const plan = planEvaluation({ persona, layer: "copy-only", copy });
    expect(plan.showsImage).toBe(false);
    expect(plan.copy).toEqual(copy);
    for (const call of plan.calls) expect(call.prompt.user).toContain(copy.adBody);
  });
});
