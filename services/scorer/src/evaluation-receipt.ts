import type { EvaluationReceipt, ModelRun } from "@adrank/bus-contracts";
import type { Embedder, GenerateResult, Generator } from "@adrank/models";
import { METHOD_VERSION, promptTemplateSpecimen } from "@adrank/ssr";
import { shortSha256 } from "@adrank/runtime";
import type { EmbeddedReferenceSet } from "./anchor-embeddings.ts";

/**
 * The default of ANCHOR_SIMILARITY_LIMIT: independent re-implementations of the method saw
 * every product score about 3 with anchors 65–83 % similar, so 0.65 is the least similarity
 * at which the method is known to have collapsed (docs/method.md).
 */
export const DEFAULT_SIMILARITY_LIMIT = 0.65;

let promptHash: string | null = null;

/** SHA-256 of every prompt template this build renders, first 16 hex digits; computed once per process (about 700 KB of text). */
export function promptTemplateHash(): string {
  promptHash ??= shortSha256(promptTemplateSpecimen());
  return promptHash;
}

/** A generator seat as it ran: the versions its provider reported over the evaluation's samples. */
export function modelRunOf(generator: Pick<Generator, "provider" | "model" | "temperature" | "thinking">, results: readonly Pick<GenerateResult, "modelVersion">[]): ModelRun {
  const versions = [...new Set(results.flatMap((r) => (r.modelVersion ? [r.modelVersion] : [])))];
  return { model: `${generator.provider}:${generator.model}`, versions, temperature: generator.temperature, thinking: generator.thinking };
}

export interface ReceiptInput {
  generators: readonly Pick<Generator, "provider" | "model" | "temperature" | "thinking">[];
  /** Every sample's result with the generator seat that answered it. */
  samples: ReadonlyArray<{ generatorIndex: number; result: Pick<GenerateResult, "modelVersion"> }>;
  embedder: Pick<Embedder, "provider" | "model">;
  dimensions: number;
  referenceSets: readonly EmbeddedReferenceSet[];
  similarityLimit: number;
}

/** What produced one evaluation, for the answer's receipt. */
export function evaluationReceipt(input: ReceiptInput): EvaluationReceipt {
  return {
    methodVersion: METHOD_VERSION,
    promptHash: promptTemplateHash(),
    referenceSets: input.referenceSets.map((s) => ({ hash: s.hash, meanSimilarity: s.meanSimilarity })),
    similarityLimit: input.similarityLimit,
    embedder: { model: `${input.embedder.provider}:${input.embedder.model}`, dimensions: input.dimensions },
    generators: input.generators.map((g, i) =>
      modelRunOf(
        g,
        input.samples.filter((s) => s.generatorIndex === i).map((s) => s.result),
      ),
    ),
  };
}
