/**
 * One model family's rules as a row people read: docs/models.md's capability table and the
 * preflight command print these. Each provider's rules file exports its rows.
 */
export interface CapabilityRow {
  /** The adapter kind: "openai", "azure", "openrouter", "ollama", "anthropic", "gemini", "vertex", "bedrock". */
  provider: string;
  /** The family and the model ids it covers, e.g. "gpt-5 (gpt-5, gpt-5-mini, gpt-5-nano)". */
  family: string;
  /** The roles it can fill here. */
  roles: ReadonlyArray<"generator" | "voter" | "embedder">;
  /** What we send, e.g. "0–2, as configured" or "never sent (only the default is accepted)". */
  temperature: string;
  /** The output-limit field we send, e.g. "max_completion_tokens". */
  tokenLimit: string;
  /** Reasoning or thinking control we send, e.g. "reasoning_effort (minimal, low, medium, high)" or "none". */
  reasoning: string;
  /** Stop or finish reasons taken as a complete answer, e.g. "stop". */
  usableStops: string;
  /** API version or path, e.g. "v1beta", "2026-10-21 (the SDK's)". */
  apiVersion: string;
  /** Where the rule comes from: a documentation page, an SDK file, a spec path. */
  source: string;
}
