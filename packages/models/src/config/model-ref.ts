export const PROVIDERS = ["openai", "anthropic", "gemini", "sim"] as const;
export type Provider = (typeof PROVIDERS)[number];

export interface ModelRef {
  provider: Provider;
  model: string;
}

export type ModelRefResult = { ok: true; ref: ModelRef } | { ok: false; error: string };

const isProvider = (x: string): x is Provider => (PROVIDERS as readonly string[]).includes(x);

/**
 * Reads "provider:model". Only the first colon separates, because model names carry their
 * own (Ollama tags such as "llava:13b").
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
  if (!isProvider(provider)) return { ok: false, error: `unknown provider "${provider}" in "${trimmed}" (known: ${PROVIDERS.join(", ")})` };
  if (!model) return { ok: false, error: `"${trimmed}" names no model after the provider` };
  return { ok: true, ref: { provider, model } };
}

export const formatModelRef = (ref: ModelRef) => `${ref.provider}:${ref.model}`;
