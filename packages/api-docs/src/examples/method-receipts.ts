import type { z } from "zod";
import type { AnswerWarning, MethodReceipt, ModelReceipt, ReferenceSetReceipt } from "@adrank/contracts";

// What the examples' receipts (summary.method) and warnings say, shared by the rank and
// pairwise examples. The version, the prompt hash and the reference-set hashes are the ones
// this build computes (METHOD_VERSION, promptTemplateHash and referenceSetHash in
// @adrank/ssr and the scorer), and the sim's similarities are what
// `node services/scorer/test/print-anchor-separability.ts` prints. The similarities under
// text-embedding-3-small are illustrative: nothing here calls a real embedder.

type Receipt = z.output<typeof MethodReceipt>;
type Model = z.output<typeof ModelReceipt>;
type ReferenceSet = z.output<typeof ReferenceSetReceipt>;

/** METHOD_VERSION of this build. */
export const EXAMPLE_METHOD_VERSION = "ssr-2026-11-26";
/** The prompt templates' hash (SHA-256, first 16 hex digits) of this build. */
export const EXAMPLE_PROMPT_TEMPLATES = "60f81dfefde371cb";
/** The scorer's default ANCHOR_SIMILARITY_LIMIT. */
export const EXAMPLE_SIMILARITY_LIMIT = 0.65;

const sets = (hashes: readonly string[], similarities: readonly number[]): ReferenceSet[] => hashes.map((hash, i) => ({ hash, mean_similarity: similarities[i]! }));

// The six reference sets of each goal the examples rank for, by hash, in the goal's order.
const CLICK_THROUGH_RATE_SETS = ["fe880b895a84220e", "30b90ba23dbaaf07", "4dbc4f7aedbf03a6", "7e5899c09ad37a23", "2cad006507c0251b", "2818c25293b02b1c"];
const SCROLL_STOPPING_SETS = ["f85f79f6d4436cea", "7769a9bd35580dd9", "1657d0a9178b3df0", "708de5ef8475f616", "c623cb999a2ef747", "b7c4202de4f7a5d4"];

/** OpenAI's embedder, as the real-model examples configure it. */
const OPENAI_EMBEDDER = { model: "openai:text-embedding-3-small", dimensions: 1536 };
const SIM_EMBEDDER = { model: "sim:sim-embed", dimensions: 519 };

/** Generator seat 1: the GPT-5 family takes only its default temperature, so none is sent. */
const GPT_5_MINI: Model = { model: "openai:gpt-5-mini", versions: ["gpt-5-mini-2025-08-07"], temperature: null, thinking: null };
/** Generator seat 2 at the default 1.0, with GEMINI_THINKING_BUDGET's default of 512. */
const GEMINI_FLASH: Model = {
  model: "gemini:gemini-2.5-flash",
  versions: ["gemini-2.5-flash"],
  temperature: 1,
  thinking: "thinkingConfig.thinkingBudget=512, thinkingConfig.includeThoughts=false",
};
/** The sim reports its own name as its version and takes no temperature: it is deterministic. */
const sim = (name: string): Model => ({ model: `sim:${name}`, versions: [name], temperature: null, thinking: null });

/** The voter of the real-model pairwise example. */
export const EXAMPLE_VOTER: Model = GPT_5_MINI;
/** The voter of the sim pairwise example. */
export const SIM_VOTER: Model = sim("sim-voter");

const scored = (referenceSets: ReferenceSet[], embedder: Receipt["embedder"], generators: Model[]): Receipt => ({
  version: EXAMPLE_METHOD_VERSION,
  prompt_templates: [EXAMPLE_PROMPT_TEMPLATES],
  reference_sets: referenceSets,
  reference_similarity_limit: EXAMPLE_SIMILARITY_LIMIT,
  embedder,
  generators,
  voters: [],
});

/** The first rank example: click-through-rate, real models, no panel. */
export const clickThroughRateReceipt = scored(sets(CLICK_THROUGH_RATE_SETS, [0.5613, 0.5382, 0.5527, 0.5741, 0.5468, 0.5594]), OPENAI_EMBEDDER, [GPT_5_MINI, GEMINI_FLASH]);
/** The rank example with a failed image: scroll-stopping, real models, no panel. */
export const scrollStoppingReceipt = scored(sets(SCROLL_STOPPING_SETS, [0.5702, 0.5519, 0.5436, 0.5688, 0.5611, 0.5573]), OPENAI_EMBEDDER, [GPT_5_MINI, GEMINI_FLASH]);
/** The sim rank example: scroll-stopping under the sim embedder, whose separability the scorer measured. */
export const simScrollStoppingReceipt = scored(sets(SCROLL_STOPPING_SETS, [0.1954, 0.1828, 0.1792, 0.191, 0.1903, 0.1853]), SIM_EMBEDDER, [sim("sim-gen-a"), sim("sim-gen-b")]);

/** A pairwise answer's receipt: no evaluation, so no reference sets, limit, embedder or generators. */
export const pairwiseReceipt = (voters: Model[]): Receipt => ({
  version: EXAMPLE_METHOD_VERSION,
  prompt_templates: [EXAMPLE_PROMPT_TEMPLATES],
  reference_sets: [],
  reference_similarity_limit: null,
  embedder: null,
  generators: [],
  voters,
});

/** The service's `simulated` warning, word for word. */
export const SIMULATED_WARNING: z.output<typeof AnswerWarning> = {
  code: "simulated",
  message: "The offline sim model produced this answer: it reads image statistics and copy heuristics, not a language model's judgement. Treat it as a demonstration, not a prediction.",
};
