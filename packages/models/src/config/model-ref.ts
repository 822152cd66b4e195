/** The providers configured by their own variables; provider profiles add further names. */
export const PROVIDERS = ["openai", "anthropic", "gemini", "sim"] as const;
export type Provider = (typeof PROVIDERS)[number];

export interface ModelRef {
  /** A built-in provider (openai, anthropic, gemini, sim) or the name of a provider profile. */
  provider: string;
  model: string;
}

export type ModelRefResult = { ok: true; ref: ModelRef } | { ok: false; error: string };

const NAME = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * Reads "provider:model". Only the first colon separates, because model names carry their
 * own (Ollama tags such as "llava:13b"). Whether the provider exists is the configuration's
 * question: it knows the profiles.
 *
 * @example
 * parseModelRef("openai:llava:13b") // { ok: true, ref: { provider: "openai", model: "llava:13b" } }
 */
export function parseModelRef(text: string): ModelRefResult {
  const trimmed = text.trim();
  const colon = trimmed.indexOf(":");
  if (colon < 0) return { ok: false, error: `"${trimmed}" is not of the form provider:model` };
  const provider = trimmed.slice(0, colon).trim().toLowerCase();
  const model = trimmed.slice(colon + 1).trim();
  if (!NAME.test(provider)) return { ok: false, error: `"${provider}" in "${trimmed}" is not a provider name` };
  if (!model) return { ok: false, error: `"${trimmed}" names no model after the provider` };
  return { ok: true, ref: { provider, model } };
}

export const formatModelRef = (ref: ModelRef) => `${ref.provider}:${ref.model}`;
