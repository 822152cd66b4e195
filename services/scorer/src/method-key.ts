import { shortSha256 } from "@adrank/runtime";

// What makes a scorer's answer, as one short key (issue 36): a kept evaluation is reused only
// under the key of the scorers running now, so a change of models, their settings, the prompts
// or the method is never answered with an old score. The scorer computes it once at start,
// puts it on every evaluation and answers it on presence (bus-contracts' Evaluation.methodKey
// and Presence.methodKey); the gateway only compares keys, never computes one.

/** A generator seat as configured: "provider:model" and the settings sent on every call. */
export interface MethodKeyGenerator {
  model: string;
  temperature: number | null;
  thinking: string | null;
}

export interface MethodKeyInput {
  /** The scoring method's version (ssr's METHOD_VERSION): formulas, reference sets, prompt layout. */
  methodVersion: string;
  /** The hash of every prompt template the scorer renders. */
  promptHash: string;
  /** In seat order: a swap of the two seats is another method. */
  generators: readonly MethodKeyGenerator[];
  /** "provider:model" of the embedder. */
  embedder: string;
  /** The scorer's ANCHOR_SIMILARITY_LIMIT (it decides a warning kept with the evaluation). */
  similarityLimit: number;
}

/**
 * The method key: the first 16 hex digits of the SHA-256 of the inputs in a fixed order. Equal
 * inputs give equal keys in every process; any change of one gives another key.
 *
 * @example
 * methodKeyOf({ methodVersion: "2", promptHash: "ab12…", generators: [{ model: "sim:sim-gen-a", temperature: null, thinking: null }], embedder: "sim:sim-embed", similarityLimit: 0.65 });
 */
export function methodKeyOf(input: MethodKeyInput): string {
  const text = JSON.stringify([
    input.methodVersion,
    input.promptHash,
    input.generators.map((g) => [g.model, g.temperature, g.thinking]),
    input.embedder,
    input.similarityLimit,
  ]);
  return shortSha256(text);
}
