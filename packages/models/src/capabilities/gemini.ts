import type { CapabilityRow } from "./capability-row.ts";

/**
 * What each Gemini model accepts and how its finish reasons read, from Google's own pages and
 * the installed @google/genai 3.1 types (node_modules/@google/genai/dist/genai.d.ts). One home
 * for these rules: the Gemini and Vertex adapters, their strict fakes and the docs table read
 * them from here.
 *
 * Sources used below:
 * - THINKING: https://ai.google.dev/gemini-api/docs/thinking (budget ranges per 2.5 model, -1
 *   dynamic, 0 off; Gemini 3 takes thinkingLevel, Gemini 3 Pro cannot stop thinking, 2.5 models
 *   take no thinkingLevel, and budget and level together are a 400).
 * - SDK_THINKING: genai.d.ts `ThinkingConfig` (thinkingBudget "0 is DISABLED. -1 is AUTOMATIC",
 *   thinkingLevel: `ThinkingLevel` MINIMAL | LOW | MEDIUM | HIGH).
 * - SDK_FINISH: genai.d.ts `FinishReason` and `BlockedReason` (the meaning of each value).
 * - MODELS: https://ai.google.dev/gemini-api/docs/models (ids, output limits; 2.0 Flash has no
 *   thinking) and the Vertex model cards, e.g.
 *   https://docs.cloud.google.com/gemini-enterprise-agent-platform/models/gemini/2-5-flash-lite
 *   ("Temperature: 0.0-2.0", output limit 65,536).
 * - EMBED: https://ai.google.dev/gemini-api/docs/embeddings and
 *   https://cloud.google.com/vertex-ai/docs/generative-ai/embeddings/get-text-embeddings
 *   (gemini-embedding-001: 3072 dimensions, Matryoshka down to 128; one instance per Vertex
 *   request); text-embedding-004 was retired on 2026-01-14
 *   (https://developers.googleblog.com/en/gemini-embedding-available-gemini-api/), so it is left
 *   to the unknown-model path.
 */

/** Gemini 3's thinking levels as the REST API and the SDK's `ThinkingLevel` enum name them. */
export type GeminiThinkingLevel = "MINIMAL" | "LOW" | "MEDIUM" | "HIGH";

export type GeminiThinkingRule =
  /** No thinkingConfig at all: the model refuses one (2.0) or we do not know the model. */
  | { mode: "none" }
  /** Gemini 2.5: a token budget. */
  | { mode: "budget"; min: number; max: number; canDisable: boolean; dynamic: boolean }
  /** Gemini 3: a named level; thinking cannot be switched off (MINIMAL is the least there is). */
  | { mode: "level"; levels: readonly GeminiThinkingLevel[]; defaultLevel: GeminiThinkingLevel };

/**
 * What a finish reason makes of the text that came with it:
 * `answer` usable; `cut_off` stopped by the output limit (a larger one may finish it);
 * `refused` a safety or policy filter (asking again is refused alike); `ask_again` unusable,
 * but another draw may well answer; `give_up` unusable and another draw would fail alike.
 */
export type GeminiFinishMeaning = "answer" | "cut_off" | "refused" | "ask_again" | "give_up";

export interface GeminiEmbeddingRule {
  /** Length of a vector when no outputDimensionality is sent. */
  dimensions: number;
  /** The smallest outputDimensionality the model takes. */
  minDimensions: number;
  /**
   * Every part of one Content goes into ONE vector (gemini-embedding-2 is multimodal and embeds
   * a Content as a whole), so each text must travel as its own Content / request.
   */
  oneVectorPerContent: true;
  /** batchEmbedContents takes at most this many requests (Gemini API reference). */
  maxBatch: number;
  /** Vertex: which method the model is served by (SDK node/index.mjs `tIsVertexEmbedContentModel`). */
  vertexMethod: "predict" | "embedContent";
}

export interface GeminiModelRules {
  /** The id as configured, without a "models/" prefix. */
  model: string;
  known: boolean;
  /** The family the id belongs to, e.g. "gemini-2.5-pro"; the id itself when unknown. */
  family: string;
  kind: "generator" | "embedder";
  /** Allowed range; null when we send none (unknown model: the provider's default applies). */
  temperature: { min: number; max: number } | null;
  thinking: GeminiThinkingRule;
  /** Largest maxOutputTokens the model takes (thinking included); the API refuses more. */
  maxOutputTokens: number;
  /** Gemini API version that serves every id of the family, aliases and previews included. */
  apiVersion: "v1beta";
  embedding?: GeminiEmbeddingRule;
}

/**
 * Gemini API version: v1beta. Preview ids (gemini-3-*-preview), the floating aliases
 * (gemini-flash-latest, gemini-pro-latest) and thinkingLevel are served on v1beta only; v1
 * answers 404 for them (https://ai.google.dev/gemini-api/docs/api-versions: "v1beta ... includes
 * early-access features"; https://ai.google.dev/gemini-api/docs/models "Latest" aliases).
 */
export const GEMINI_API_VERSION = "v1beta";

// Temperature 0.0-2.0 on every current Gemini generator (MODELS: each model card's
// "Parameter defaults"). Gemini 3 pages advise keeping the default 1.0, but lower values are
// still accepted; the seats' 0.5 and 1.0 are both in range.
const TEMPERATURE = { min: 0, max: 2 } as const;

interface FamilyRule {
  family: string;
  /** Ids of the family: the base id, plus any suffix matched by `DATED_OR_PREVIEW`. */
  ids: readonly string[];
  kind: "generator" | "embedder";
  thinking: GeminiThinkingRule;
  maxOutputTokens: number;
  embedding?: GeminiEmbeddingRule;
}

// Longest ids first, so "gemini-2.5-flash-lite" is not read as "gemini-2.5-flash" plus a suffix.
const FAMILIES: readonly FamilyRule[] = [
  // MODELS: 2.0 Flash and Flash-Lite have no thinking; a thinkingConfig is a 400. Output 8,192.
  { family: "gemini-2.0-flash-lite", ids: ["gemini-2.0-flash-lite"], kind: "generator", thinking: { mode: "none" }, maxOutputTokens: 8192 },
  { family: "gemini-2.0-flash", ids: ["gemini-2.0-flash"], kind: "generator", thinking: { mode: "none" }, maxOutputTokens: 8192 },
  // THINKING: Flash-Lite 512-24576, 0 turns it off, -1 dynamic.
  { family: "gemini-2.5-flash-lite", ids: ["gemini-2.5-flash-lite"], kind: "generator", thinking: { mode: "budget", min: 512, max: 24576, canDisable: true, dynamic: true }, maxOutputTokens: 65536 },
  // THINKING: Flash 0-24576 (0 off), -1 dynamic.
  { family: "gemini-2.5-flash", ids: ["gemini-2.5-flash"], kind: "generator", thinking: { mode: "budget", min: 1, max: 24576, canDisable: true, dynamic: true }, maxOutputTokens: 65536 },
  // THINKING: Pro 128-32768, cannot be switched off, -1 dynamic.
  { family: "gemini-2.5-pro", ids: ["gemini-2.5-pro"], kind: "generator", thinking: { mode: "budget", min: 128, max: 32768, canDisable: false, dynamic: true }, maxOutputTokens: 65536 },
  // THINKING: Gemini 3 Pro takes LOW or HIGH (default HIGH, dynamic); it cannot stop thinking.
  { family: "gemini-3-pro", ids: ["gemini-3-pro"], kind: "generator", thinking: { mode: "level", levels: ["LOW", "HIGH"], defaultLevel: "HIGH" }, maxOutputTokens: 65536 },
  // THINKING: Gemini 3 Flash takes MINIMAL, LOW, MEDIUM, HIGH (default HIGH).
  { family: "gemini-3-flash", ids: ["gemini-3-flash"], kind: "generator", thinking: { mode: "level", levels: ["MINIMAL", "LOW", "MEDIUM", "HIGH"], defaultLevel: "HIGH" }, maxOutputTokens: 65536 },
  // Floating aliases (MODELS, "Latest"): they move between generations (2.5 and 3), so they get
  // the budgets both accept (Gemini 3 still takes thinkingBudget for compatibility, THINKING),
  // without 0, which a Pro or a Gemini 3 target refuses.
  { family: "gemini-flash-latest", ids: ["gemini-flash-latest", "gemini-flash-lite-latest"], kind: "generator", thinking: { mode: "budget", min: 512, max: 24576, canDisable: false, dynamic: true }, maxOutputTokens: 65536 },
  { family: "gemini-pro-latest", ids: ["gemini-pro-latest"], kind: "generator", thinking: { mode: "budget", min: 128, max: 32768, canDisable: false, dynamic: true }, maxOutputTokens: 65536 },
  // EMBED: 3072 by default, Matryoshka down to 128; Vertex serves 001 through :predict (SDK).
  {
    family: "gemini-embedding-001",
    ids: ["gemini-embedding-001"],
    kind: "embedder",
    thinking: { mode: "none" },
    maxOutputTokens: 0,
    embedding: { dimensions: 3072, minDimensions: 128, oneVectorPerContent: true, maxBatch: 100, vertexMethod: "predict" },
  },
  // EMBED: gemini-embedding-2 is multimodal: the parts of one Content make one vector (the SDK
  // merges an array of strings into one Content for it: node/index.mjs `embedContent` -> tContents).
  {
    family: "gemini-embedding-2",
    ids: ["gemini-embedding-2"],
    kind: "embedder",
    thinking: { mode: "none" },
    maxOutputTokens: 0,
    embedding: { dimensions: 3072, minDimensions: 128, oneVectorPerContent: true, maxBatch: 100, vertexMethod: "embedContent" },
  },
];

// Dated, numbered and preview variants of a family id: -001, -preview, -preview-09-2025,
// -exp-03-25, -latest (MODELS, "Model version name patterns").
const DATED_OR_PREVIEW = /^(?:-\d{3}|-latest|-preview(?:-\d{2}-\d{2,4}|-\d{4}-\d{2}-\d{2})?|-exp(?:-\d{2}-\d{2,4})?|-\d{2}-\d{4})*$/;

function familyOf(model: string): FamilyRule | undefined {
  for (const family of FAMILIES) {
    for (const id of family.ids) {
      if (model === id) return family;
      if (model.startsWith(id) && DATED_OR_PREVIEW.test(model.slice(id.length))) return family;
    }
  }
  return undefined;
}

/**
 * The rules for one model id. An unknown id never throws: it gets the safe choice (no
 * temperature, no thinkingConfig), `known: false`, and the caller warns at start.
 *
 * @example
 * geminiModelRules("gemini-2.5-pro").thinking; // { mode: "budget", min: 128, max: 32768, canDisable: false, dynamic: true }
 */
export function geminiModelRules(model: string): GeminiModelRules {
  const id = model.startsWith("models/") ? model.slice("models/".length) : model;
  const family = familyOf(id);
  if (!family) {
    const kind = /embedding/.test(id) ? "embedder" : "generator";
    return { model: id, known: false, family: id, kind, temperature: null, thinking: { mode: "none" }, maxOutputTokens: 8192, apiVersion: GEMINI_API_VERSION };
  }
  return {
    model: id,
    known: true,
    family: family.family,
    kind: family.kind,
    temperature: family.kind === "generator" ? TEMPERATURE : null,
    thinking: family.thinking,
    maxOutputTokens: family.maxOutputTokens,
    apiVersion: GEMINI_API_VERSION,
    ...(family.embedding ? { embedding: family.embedding } : {}),
  };
}

/** Which thinkingConfig to send for a configured budget, and how many tokens it adds to the output limit. */
export interface ThinkingPlan {
  /** Absent: send no thinkingConfig. */
  config?: { thinkingBudget: number; includeThoughts: false } | { thinkingLevel: GeminiThinkingLevel; includeThoughts: false };
  /** Tokens of thinking to add to the answer budget in maxOutputTokens (thinking counts inside it). */
  thinkingTokens: number;
  /** Set when the configured budget was changed to fit the model, in words for the start-up log. */
  adjusted?: string;
}

/**
 * Tokens we set aside for each Gemini 3 level. Google publishes no token count per level, so
 * these are ours: enough that the answer budget is not eaten, and a cut-off answer is asked
 * again with a larger limit anyway.
 */
export const GEMINI_LEVEL_ALLOWANCE: Readonly<Record<GeminiThinkingLevel, number>> = { MINIMAL: 512, LOW: 2048, MEDIUM: 8192, HIGH: 16384 };

/** Tokens set aside for dynamic thinking (-1): the model decides, up to its budget maximum. */
export const GEMINI_DYNAMIC_ALLOWANCE = 8192;

/**
 * A budget in the order Gemini 3's levels mean: 0 the least thinking there is, up to 2048
 * LOW, up to 8192 MEDIUM, more (or -1, dynamic) HIGH; a level the model lacks becomes the
 * nearest one it has (Gemini 3 Pro: MINIMAL -> LOW, MEDIUM -> HIGH).
 */
function levelForBudget(budget: number, levels: readonly GeminiThinkingLevel[], defaultLevel: GeminiThinkingLevel): GeminiThinkingLevel {
  if (budget < 0) return defaultLevel;
  const order: GeminiThinkingLevel[] = ["MINIMAL", "LOW", "MEDIUM", "HIGH"];
  const wanted = budget === 0 ? 0 : budget <= 2048 ? 1 : budget <= 8192 ? 2 : 3;
  let best = levels[0]!;
  let bestDistance = Infinity;
  for (const level of levels) {
    // Ties go to the higher level: too little thinking hurts an answer more than too much.
    const distance = Math.abs(order.indexOf(level) - wanted) - (order.indexOf(level) > wanted ? 0.5 : 0);
    if (distance < bestDistance) {
      best = level;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Translates a configured thinking budget into what `rules` accepts: nothing for a model
 * without thinking, the nearest valid budget for 2.5 (never an invalid one), a level for
 * Gemini 3.
 *
 * @example
 * thinkingPlan(geminiModelRules("gemini-2.5-pro"), 0); // { config: { thinkingBudget: 128, includeThoughts: false }, thinkingTokens: 128, adjusted: "..." }
 */
export function thinkingPlan(rules: GeminiModelRules, budget: number): ThinkingPlan {
  const thinking = rules.thinking;
  if (thinking.mode === "none") {
    return budget > 0 && rules.known && rules.kind === "generator" ? { thinkingTokens: 0, adjusted: `${rules.model} does not think; the thinking budget ${budget} is not sent` } : { thinkingTokens: 0 };
  }
  if (thinking.mode === "level") {
    const level = levelForBudget(budget, thinking.levels, thinking.defaultLevel);
    return {
      config: { thinkingLevel: level, includeThoughts: false },
      thinkingTokens: GEMINI_LEVEL_ALLOWANCE[level],
      adjusted: `${rules.model} takes a thinking level, not a budget: budget ${budget} is sent as thinkingLevel ${level}`,
    };
  }
  let sent: number;
  if (budget < 0) sent = thinking.dynamic ? -1 : thinking.max;
  else if (budget === 0) sent = thinking.canDisable ? 0 : thinking.min;
  else sent = Math.min(thinking.max, Math.max(thinking.min, Math.round(budget)));
  const thinkingTokens = sent === -1 ? Math.min(thinking.max, GEMINI_DYNAMIC_ALLOWANCE) : sent;
  return {
    config: { thinkingBudget: sent, includeThoughts: false },
    thinkingTokens,
    ...(sent === budget ? {} : { adjusted: `${rules.model} takes thinking budgets ${thinking.canDisable ? "0 or " : ""}${thinking.min}-${thinking.max}${thinking.dynamic ? " or -1" : ""}: budget ${budget} is sent as ${sent}` }),
  };
}

// SDK_FINISH: what each finish reason says about the candidate's text.
const FINISH_MEANINGS: Readonly<Record<string, GeminiFinishMeaning>> = {
  STOP: "answer",
  MAX_TOKENS: "cut_off",
  // "reached the per-request token limit, but generation is not yet complete": a larger limit may finish it.
  CONTINUATION: "cut_off",
  SAFETY: "refused",
  BLOCKLIST: "refused",
  PROHIBITED_CONTENT: "refused",
  SPII: "refused",
  IMAGE_SAFETY: "refused",
  IMAGE_PROHIBITED_CONTENT: "refused",
  // Possible recitation of a source: the partial text is not an answer; another draw may word it differently.
  RECITATION: "ask_again",
  IMAGE_RECITATION: "ask_again",
  OTHER: "ask_again",
  IMAGE_OTHER: "ask_again",
  MALFORMED_RESPONSE: "ask_again",
  FINISH_REASON_UNSPECIFIED: "ask_again",
  NO_IMAGE: "ask_again",
  // We declare no tools: a tool call is the model misfiring, and a fresh draw usually answers.
  MALFORMED_FUNCTION_CALL: "ask_again",
  UNEXPECTED_TOOL_CALL: "ask_again",
  TOO_MANY_TOOL_CALLS: "ask_again",
  // The prompt's language is unsupported: asking again in the same language fails alike.
  LANGUAGE: "give_up",
};

/**
 * What a candidate's finish reason makes of its text. No finish reason at all is read as a
 * complete answer (older responses omit it); a value this table does not know is never taken
 * as an answer.
 */
export function geminiFinishMeaning(finishReason: string | undefined): GeminiFinishMeaning {
  if (finishReason === undefined) return "answer";
  return FINISH_MEANINGS[finishReason] ?? "ask_again";
}

/** The finish reasons taken as a complete answer, for the docs table. */
export const GEMINI_USABLE_FINISH_REASONS: readonly string[] = Object.entries(FINISH_MEANINGS)
  .filter(([, meaning]) => meaning === "answer")
  .map(([reason]) => reason);

function thinkingWords(rule: GeminiThinkingRule): string {
  switch (rule.mode) {
    case "none":
      return "none (a thinkingConfig is refused)";
    case "budget":
      return `thinkingConfig.thinkingBudget ${rule.canDisable ? "0 (off) or " : ""}${rule.min}-${rule.max}${rule.dynamic ? ", -1 dynamic" : ""}; other values are moved to the nearest valid one`;
    case "level":
      return `thinkingConfig.thinkingLevel (${rule.levels.join(", ")}; default ${rule.defaultLevel}); the budget is mapped to a level`;
  }
}

/**
 * The Gemini families as rows for docs/models.md and the preflight command.
 * `provider` is "gemini" or "vertex" (the same models through Vertex AI).
 */
export function geminiCapabilityRows(provider: "gemini" | "vertex" = "gemini"): CapabilityRow[] {
  return FAMILIES.map((f) => {
    const rules = geminiModelRules(f.ids[0]!);
    const generator = f.kind === "generator";
    return {
      provider,
      family: `${f.family} (${f.ids.join(", ")}, with -NNN, -preview, -latest variants)`,
      roles: generator ? ["generator", "voter"] : ["embedder"],
      temperature: generator ? "0–2, as configured" : "not applicable",
      tokenLimit: generator ? `generationConfig.maxOutputTokens (answer + thinking, at most ${f.maxOutputTokens})` : `outputDimensionality (default ${f.embedding!.dimensions}, at least ${f.embedding!.minDimensions}); one Content per text`,
      reasoning: generator ? thinkingWords(rules.thinking) : "none",
      usableStops: generator ? "STOP (MAX_TOKENS is asked again with a larger limit; RECITATION, OTHER and the like are never an answer)" : "not applicable",
      apiVersion: provider === "gemini" ? GEMINI_API_VERSION : "v1 (Vertex AI)",
      source: "https://ai.google.dev/gemini-api/docs/thinking; https://ai.google.dev/gemini-api/docs/models; @google/genai genai.d.ts ThinkingConfig, FinishReason",
    };
  });
}
