import type { MisconfigurationCause } from "../model-error.ts";

/**
 * The operator's settings behind one configured model, by name, so an error can say which
 * one to change. Names only: never a value (a key must not reach a log).
 */
export interface ModelSettings {
  /** The variable or profile setting that names this model, e.g. "ADRANK_GENERATORS". */
  model?: string;
  /** Where its key or credentials come from, e.g. "OPENAI_API_KEY". */
  key?: string;
  /** Where its endpoint comes from, e.g. "OPENAI_BASE_URL". */
  endpoint?: string;
  /** Where its model options (temperature, reasoning, thinking, API version) are set. */
  options?: string;
}

const or = (name: string | undefined, fallback: string) => name ?? fallback;

/**
 * One sentence telling the operator what to change for a misconfiguration, naming the setting.
 *
 * @example
 * misconfigurationFix("unknown_model", { provider: "openai", model: "gpt-9", settings: { model: "ADRANK_GENERATORS" } }, "HTTP 404");
 * // "openai does not serve model gpt-9 (HTTP 404): correct the model name in ADRANK_GENERATORS, or point the endpoint setting at a server that has it."
 */
export function misconfigurationFix(cause: MisconfigurationCause, target: { provider: string; model: string; settings?: ModelSettings }, detail: string): string {
  const { provider, model } = target;
  const s = target.settings ?? {};
  const seen = detail ? ` (${detail})` : "";
  switch (cause) {
    case "credentials":
      return `${provider} refused the credentials for model ${model}${seen}: check ${or(s.key, "the provider's key")} (a wrong, revoked or under-privileged key).`;
    case "unknown_model":
      return `${provider} does not serve model ${model}${seen}: correct the model name in ${or(s.model, "the model setting")}, or point ${or(s.endpoint, "the endpoint setting")} at a server that has it.`;
    case "unsupported_parameter":
      return `${provider} refused a parameter we sent to model ${model}${seen}: change ${or(s.options, "the model's options")} (temperature, reasoning or thinking) to what this model accepts; docs/models.md lists them.`;
    case "quota_exhausted":
      return `${provider}'s quota or credit for model ${model} is used up${seen}: raise it with the provider, or use another key in ${or(s.key, "the provider's key")}. Retrying will not help before it resets.`;
    case "region_or_version":
      return `${provider} refused the region or API version for model ${model}${seen}: check ${or(s.endpoint, "the endpoint setting")} and ${or(s.options, "the API version setting")}.`;
    case "invalid_request":
      return `${provider} refused our request to model ${model} as invalid${seen}: check ${or(s.model, "the model setting")} and ${or(s.options, "the model's options")} against docs/models.md.`;
    default: {
      const never: never = cause;
      return `${provider} model ${model} is misconfigured (${String(never)}).`;
    }
  }
}
