import { GENERATORS_PER_REPETITION, GOALS, REPETITIONS_PER_EVALUATION, ScoreLayer } from "@adrank/contracts";
import { buildGeneratorPrompt } from "./generator-prompt.ts";
import { buildPersona, type PersonaInputLike } from "./persona.ts";
import { buildVotePrompt } from "./vote-prompt.ts";

/**
 * The scoring method's version, on every answer's receipt. Change it with the formulas, the
 * reference sets or the prompt layout: two answers with the same version and the same prompt
 * hash were produced the same way. 2026-11-26: six reference sets per goal (issue 34).
 */
export const METHOD_VERSION = "ssr-2026-11-26";

// A fixed persona and copy that reach every branch of the templates that carries text of its
// own (copy block, defaulted fields, platform framing), so an edit to any of them shows.
const SPECIMEN_PERSONA: PersonaInputLike = {
  audience: { name: "Specimen audience", description: "Buys running shoes twice a year.", demographics: { ageRange: "25-34", priceSensitivity: "high" } },
  goal: "purchase-intent",
  assetType: "Advertisement",
  platform: "instagram",
  campaignType: null,
};
const SPECIMEN_COPY = { pageName: "Specimen", adBody: "Body text.", adHeadline: "Headline.", adCaption: "Caption.", adDescription: "Description." };

/**
 * Every prompt template rendered for one fixed input per goal, layer, repetition and seat, and
 * the vote template per goal: hashing this text (the workers do, with SHA-256) gives a
 * fingerprint that changes whenever any template's wording does, and only then.
 */
export function promptTemplateSpecimen(): string {
  const parts: string[] = [];
  for (const goal of GOALS) {
    const persona = buildPersona({ ...SPECIMEN_PERSONA, goal });
    for (const layer of ScoreLayer.options) {
      const copy = layer === "image-only" ? null : SPECIMEN_COPY;
      for (let repetition = 0; repetition < REPETITIONS_PER_EVALUATION; repetition++)
        for (let generatorIndex = 0; generatorIndex < GENERATORS_PER_REPETITION; generatorIndex++) {
          const p = buildGeneratorPrompt({ persona, layer, copy, goal, repetition, generatorIndex });
          parts.push(p.system, p.user);
        }
    }
    const vote = buildVotePrompt({ persona, goal, assetTypes: ["Advertisement", null], copyA: SPECIMEN_COPY, copyB: null });
    parts.push(vote.system, vote.user);
  }
  return parts.join("\u0000");
}
