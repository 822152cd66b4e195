import type { CapabilityRow } from "./capability-row.ts";

/**
 * What each Claude model accepts on the Messages API under the `anthropic-version` the installed
 * `@anthropic-ai/sdk` sends (2026-10-21, node_modules/@anthropic-ai/sdk/client.js).
 *
 * Sources, cited beside each rule below:
 * - SDK: node_modules/@anthropic-ai/sdk/resources/messages/messages.d.ts (`MessageCreateParamsBase`,
 *   `ThinkingConfigParam`, `StopReason`, `Model`).
 * - THINKING: https://platform.claude.com/docs/en/build-with-claude/thinking-troubleshooting
 *   ("Thinking support, defaults, and rejected configurations by model").
 * - EXTENDED: https://platform.claude.com/docs/en/build-with-claude/extended-thinking
 * - ADAPTIVE: https://platform.claude.com/docs/en/build-with-claude/adaptive-thinking
 * - FABLE5: https://platform.claude.com/docs/en/models/fable-5/migration-guide
 * - SONNET55: https://platform.claude.com/docs/en/models/sonnet-5-5/whats-new-sonnet-5-5
 * - MODELS: https://platform.claude.com/docs/en/models/overview (and each model's overview page)
 * - STOPS: https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons
 */

/** The `anthropic-version` header the installed SDK sends; every rule here is for it. */
export const ANTHROPIC_API_VERSION = "2026-10-21";

/**
 * Which `thinking.type` carrying a budget or not a model takes:
 * - `enabled-only`: manual `{type:"enabled", budget_tokens}` only; adaptive is refused (Claude 4.5 and earlier).
 * - `enabled-or-adaptive`: both (Claude 4.6 and Mythos Preview), where `enabled` is deprecated: we send
 *   adaptive (the SDK warns on every call that sends `enabled` to these, messages.js
 *   MODELS_TO_WARN_WITH_THINKING_ENABLED).
 * - `adaptive-only`: `enabled` is refused with a 400 (Opus 4.7 and later).
 * - `none`: we send no thinking parameter (an unknown model: the safe choice).
 */
export type AnthropicThinking = "enabled-only" | "enabled-or-adaptive" | "adaptive-only" | "none";

export interface AnthropicModelRules {
  /** False for a model id not in this table: no temperature, no thinking parameter, a warning at start. */
  known: boolean;
  /** The family id without a dated snapshot suffix, e.g. "claude-sonnet-4-5". */
  family: string;
  /** Never a range: `MessageCreateParamsBase` under 2026-10-21 has no temperature, top_p or top_k (SDK). */
  temperature: null;
  thinking: AnthropicThinking;
  /** The model thinks (adaptively) when the request carries no `thinking` at all. */
  thinksByDefault: boolean;
  /**
   * The `thinking.type` that turns default thinking off ("disabled", or "between_tools" on Sonnet
   * 5.5); null when thinking is always on, or off by default anyway.
   */
  turnOff: "disabled" | "between_tools" | null;
  /** The largest `max_tokens` the model takes. */
  maxOutputTokens: number;
  /** The day Anthropic retires the model, when announced (the SDK's DEPRECATED_MODELS table). */
  retiresOn: string | null;
  /** Where these rules come from. */
  source: string;
}

const K = 1000;

/** The short names used in `source` below, and the pages they stand for. */
const DOCS: Readonly<Record<string, string>> = {
  SDK: "node_modules/@anthropic-ai/sdk/resources/messages/messages.d.ts",
  THINKING: "https://platform.claude.com/docs/en/build-with-claude/thinking-troubleshooting",
  EXTENDED: "https://platform.claude.com/docs/en/build-with-claude/extended-thinking",
  ADAPTIVE: "https://platform.claude.com/docs/en/build-with-claude/adaptive-thinking",
  FABLE5: "https://platform.claude.com/docs/en/models/fable-5/migration-guide",
  SONNET55: "https://platform.claude.com/docs/en/models/sonnet-5-5/whats-new-sonnet-5-5",
  MODELS: "https://platform.claude.com/docs/en/models/overview",
  STOPS: "https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons",
};

const withUrls = (source: string) => source.replace(/\b(SDK|THINKING|EXTENDED|ADAPTIVE|FABLE5|SONNET55|MODELS|STOPS)\b/g, (name) => DOCS[name] ?? name);

interface FamilyRule {
  family: string;
  /** Dated snapshot ids of this family listed in the SDK's `Model` union. */
  snapshots?: readonly string[];
  thinking: Exclude<AnthropicThinking, "none">;
  thinksByDefault: boolean;
  turnOff: AnthropicModelRules["turnOff"];
  maxOutputTokens: number;
  retiresOn?: string;
  source: string;
}

const FAMILIES: readonly FamilyRule[] = [
  // Claude 4.5: manual extended thinking is the only thinking mode, off unless asked (THINKING; ADAPTIVE
  // "Older models (Sonnet 4.5, Opus 4.5, ...) do not support adaptive thinking"). Max output 64K (MODELS).
  { family: "claude-haiku-4-5", snapshots: ["claude-haiku-4-5-20251001"], thinking: "enabled-only", thinksByDefault: false, turnOff: null, maxOutputTokens: 64 * K, source: "THINKING; MODELS (Haiku 4.5: extended thinking, 64K output)" },
  // Retired on 2026-11-30 (SDK resources/messages/messages.js DEPRECATED_MODELS, which also warns on every call).
  { family: "claude-sonnet-4-5", snapshots: ["claude-sonnet-4-5-20250929"], thinking: "enabled-only", thinksByDefault: false, turnOff: null, maxOutputTokens: 64 * K, retiresOn: "2026-11-30", source: "THINKING; MODELS (Sonnet 4.5: extended thinking, 64K output)" },
  { family: "claude-opus-4-5", snapshots: ["claude-opus-4-5-20251101"], thinking: "enabled-only", thinksByDefault: false, turnOff: null, maxOutputTokens: 64 * K, source: "THINKING; ADAPTIVE (Opus 4.5 has no adaptive thinking); 64K output" },
  // Claude 4.6: both modes; `enabled` deprecated but still accepted (THINKING; ADAPTIVE). Thinking is off
  // unless asked. Sonnet 4.6's max output: 64K is the smaller figure the sources give, the safe cap.
  { family: "claude-sonnet-4-6", thinking: "enabled-or-adaptive", thinksByDefault: false, turnOff: null, maxOutputTokens: 64 * K, source: "THINKING (enabled deprecated on 4.6, still works); MODELS" },
  { family: "claude-opus-4-6", thinking: "enabled-or-adaptive", thinksByDefault: false, turnOff: null, maxOutputTokens: 128 * K, source: "THINKING; https://platform.claude.com/docs/en/models/opus-4-6/overview (128K output)" },
  // Opus 4.7 and 4.8 refuse `enabled` with a 400; adaptive is opt-in (THINKING; EXTENDED "Claude 4.7 and later
  // models do not support it"; MODELS: Opus 4.7 "Extended thinking: No, Adaptive thinking: Yes").
  { family: "claude-opus-4-7", thinking: "adaptive-only", thinksByDefault: false, turnOff: null, maxOutputTokens: 128 * K, source: "THINKING; EXTENDED; MODELS (Opus 4.7: adaptive only, 128K output)" },
  { family: "claude-opus-4-8", thinking: "adaptive-only", thinksByDefault: false, turnOff: null, maxOutputTokens: 128 * K, source: "THINKING (Opus 4.8 rejects enabled); 128K output" },
  // Mythos Preview takes both modes, thinks adaptively when `thinking` is absent and refuses `disabled`
  // (THINKING "Claude Mythos Preview supports both modes"; ADAPTIVE). Output cap not published where we read: 64K, the safe figure.
  { family: "claude-mythos-preview", thinking: "enabled-or-adaptive", thinksByDefault: true, turnOff: null, maxOutputTokens: 64 * K, source: "THINKING; ADAPTIVE (adaptive by default, disabled refused)" },
  // Claude 5: adaptive only, on by default; Sonnet 5 and Opus 5 can turn it off with `disabled` (MODELS: "Adaptive", 128K).
  { family: "claude-sonnet-5", thinking: "adaptive-only", thinksByDefault: true, turnOff: "disabled", maxOutputTokens: 128 * K, source: "THINKING; MODELS (Sonnet 5: adaptive, 128K output)" },
  { family: "claude-opus-5", thinking: "adaptive-only", thinksByDefault: true, turnOff: "disabled", maxOutputTokens: 128 * K, source: "THINKING; MODELS (Opus 5: adaptive, 128K output)" },
  // Fable 5.x and Mythos 5.x: thinking always on; both `enabled` and `disabled` are refused (FABLE5; MODELS "Adaptive (always on)").
  ...["claude-fable-5", "claude-fable-5-1", "claude-fable-5-2", "claude-mythos-5", "claude-mythos-5-1", "claude-mythos-5-2"].map(
    (family): FamilyRule => ({ family, thinking: "adaptive-only", thinksByDefault: true, turnOff: null, maxOutputTokens: 128 * K, source: "FABLE5 (enabled and disabled return 400); MODELS (always on, 128K output)" }),
  ),
  // Claude 5.5: adaptive on by default (MODELS). Opus 5.5 cannot turn it off; Sonnet 5.5 uses `between_tools`
  // in place of `disabled` (SONNET55); Haiku 5.5 takes `disabled`.
  { family: "claude-opus-5-5", thinking: "adaptive-only", thinksByDefault: true, turnOff: null, maxOutputTokens: 128 * K, source: "MODELS (Opus 5.5: adaptive, always on, 128K output)" },
  { family: "claude-sonnet-5-5", thinking: "adaptive-only", thinksByDefault: true, turnOff: "between_tools", maxOutputTokens: 128 * K, source: "SONNET55 (between_tools replaces disabled); MODELS (128K output)" },
  { family: "claude-haiku-5-5", thinking: "adaptive-only", thinksByDefault: true, turnOff: "disabled", maxOutputTokens: 128 * K, source: "MODELS (Haiku 5.5: adaptive, 128K output); THINKING" },
];

/** An unknown model's output cap: every Claude model the docs list takes at least 64K. */
const UNKNOWN_MAX_OUTPUT_TOKENS = 64 * K;

/**
 * The rules of one Claude model id (an alias or a dated snapshot such as
 * claude-sonnet-4-5-20250929). Never throws: an unknown id gets `known: false` and the safe choice.
 *
 * @example
 * anthropicModelRules("claude-opus-4-7").thinking; // "adaptive-only"
 */
export function anthropicModelRules(model: string): AnthropicModelRules {
  const id = model.trim();
  const rule = FAMILIES.find((f) => id === f.family || f.snapshots?.includes(id) || isDatedSnapshot(id, f.family));
  if (!rule) {
    return { known: false, family: id, temperature: null, thinking: "none", thinksByDefault: false, turnOff: null, maxOutputTokens: UNKNOWN_MAX_OUTPUT_TOKENS, retiresOn: null, source: "unknown model: safe defaults" };
  }
  return { known: true, family: rule.family, temperature: null, thinking: rule.thinking, thinksByDefault: rule.thinksByDefault, turnOff: rule.turnOff, maxOutputTokens: rule.maxOutputTokens, retiresOn: rule.retiresOn ?? null, source: withUrls(rule.source) };
}

// Snapshots are the alias plus an eight-digit date (MODELS, "Model IDs and versioning").
function isDatedSnapshot(id: string, family: string): boolean {
  return id.startsWith(`${family}-`) && /^\d{8}$/.test(id.slice(family.length + 1));
}

/** What a stop reason makes of the answer, as `AnswerAttempt` records it. */
export type AnthropicStopMeaning = "answer" | "truncated" | "refused" | "ask-again" | "give-up";

/**
 * Every `StopReason` of the SDK (messages.d.ts) and what we make of it (STOPS, quick reference):
 * - end_turn, stop_sequence: the model finished; the text is the answer.
 * - max_tokens: cut off by our limit; asked again with a larger one.
 * - refusal: the model or Anthropic's classifiers declined this content; never asked again.
 * - model_context_window_exceeded: the docs say treat it as truncated, but a larger output limit
 *   cannot help when the context window itself is full, and the same prompt would fill it again:
 *   give up.
 * - pause_turn: a server-tool loop hit its iteration limit. We send no server tools, and the only
 *   way on is to send the paused turn back; a fresh ask would redo the same work and pause alike: give up.
 * - tool_use: the model tried to call a tool, which we never offer; its text is not the answer, but
 *   another draw may well answer in text: ask again.
 * Anything else (a value newer than this SDK, or null) is not known to be complete: ask again.
 */
export const ANTHROPIC_STOP_REASONS: Readonly<Record<string, AnthropicStopMeaning>> = {
  end_turn: "answer",
  stop_sequence: "answer",
  max_tokens: "truncated",
  refusal: "refused",
  model_context_window_exceeded: "give-up",
  pause_turn: "give-up",
  tool_use: "ask-again",
};

export function anthropicStopMeaning(stopReason: string | null | undefined): AnthropicStopMeaning {
  return (stopReason ? ANTHROPIC_STOP_REASONS[stopReason] : undefined) ?? "ask-again";
}

function thinkingText(rule: FamilyRule): string {
  const when = {
    "enabled-only": "thinking {type: enabled, budget_tokens} when a budget is set",
    "enabled-or-adaptive": "thinking {type: adaptive} when a budget is set (enabled is deprecated here; the budget only raises max_tokens)",
    "adaptive-only": "thinking {type: adaptive} when a budget is set (the budget only raises max_tokens)",
  }[rule.thinking];
  const otherwise = !rule.thinksByDefault ? "none otherwise" : rule.turnOff ? `{type: ${rule.turnOff}} otherwise (thinks by default)` : "none otherwise (always thinks; max_tokens keeps room for it)";
  return `${when}; ${otherwise}`;
}

/** The capability table rows of every Claude family above, for docs/models.md and the preflight command. */
export function anthropicCapabilityRows(): CapabilityRow[] {
  return FAMILIES.map((rule) => ({
    provider: "anthropic",
    family: rule.snapshots?.length ? `${rule.family} (${[rule.family, ...rule.snapshots].join(", ")})` : rule.family,
    roles: ["generator", "voter"],
    temperature: "never sent (not a parameter under anthropic-version 2026-10-21)",
    tokenLimit: `max_tokens (answer budget + thinking budget, at most ${rule.maxOutputTokens / K}K)`,
    reasoning: thinkingText(rule),
    usableStops: "end_turn, stop_sequence",
    apiVersion: `${ANTHROPIC_API_VERSION} (the SDK's)`,
    source: withUrls(rule.source) + (rule.retiresOn ? `; retired on ${rule.retiresOn}` : ""),
  }));
}
