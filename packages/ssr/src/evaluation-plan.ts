import { GENERATORS_PER_REPETITION, REPETITIONS_PER_EVALUATION, type ScoreLayer } from "@adrank/contracts";
import { buildGeneratorPrompt, type Prompt } from "./generator-prompt.ts";
import { buildPersona, type PersonaInputLike } from "./persona.ts";

export interface EvaluationPlanInput {
  /** The persona as the job gives it; the plan builds the respondent from it. */
  persona: PersonaInputLike;
  layer: ScoreLayer;
  /** The asset's normalized copy (preferred keys), or null when it has none. */
  copy: Readonly<Record<string, string>> | null;
}

/** One generator call of an evaluation. */
export interface PlannedGeneratorCall {
  /** 0-based repetition of the evaluation. */
  repetition: number;
  /** 0-based generator of the repetition's pair: which generator model answers. */
  generatorIndex: number;
  prompt: Prompt;
}

export interface EvaluationPlan {
  /** Whether the generators see the asset's image: in every layer but copy-only. */
  showsImage: boolean;
  /** The copy the generators may read: null in the image-only layer, which withholds it. */
  copy: Readonly<Record<string, string>> | null;
  /**
   * Every generator call of the evaluation, repetition by repetition and generator 0 first:
   * the order in which `evaluationResult` reads their answers.
   */
  calls: PlannedGeneratorCall[];
}

/**
 * The generator calls that make one scoring evaluation: each of the 3 repetitions asks both
 * generators of the pair, 6 calls in all, each with its own prompt.
 *
 * @example
 * planEvaluation({ persona, layer: "image-only", copy }).calls.map((c) => [c.repetition, c.generatorIndex]);
 * // [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1]]; the copy is withheld from every prompt
 */
export function planEvaluation({ persona: personaInput, layer, copy: jobCopy }: EvaluationPlanInput): EvaluationPlan {
  const persona = buildPersona(personaInput);
  const copy = layer === "image-only" ? null : jobCopy;
  const calls: PlannedGeneratorCall[] = [];
  for (let repetition = 0; repetition < REPETITIONS_PER_EVALUATION; repetition++) {
    for (let generatorIndex = 0; generatorIndex < GENERATORS_PER_REPETITION; generatorIndex++) {
      const prompt = buildGeneratorPrompt({ persona, layer, copy, goal: personaInput.goal, repetition, generatorIndex });
      calls.push({ repetition, generatorIndex, prompt });
    }
  }
  return { showsImage: layer !== "copy-only", copy, calls };
}
