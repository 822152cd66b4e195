import { isModelError } from "../model-error.ts";
import type { Embedder, Generator } from "../types.ts";
import type { ModelCheckRow } from "./check-models.ts";

/**
 * Whether this service's models can work, for its /readyz: not ready while the start-up
 * check has not passed, or while a model's latest call failed on a misconfiguration. A later
 * successful call to that model clears it.
 */
export interface ModelsReadiness {
  notReadyReason(): string | null;
  /** Records the start-up check's rows (failed rows keep the service not ready). */
  recordCheck(rows: readonly ModelCheckRow[]): void;
  /** Wraps a generator so its calls keep the readiness current. */
  watchGenerator(generator: Generator): Generator;
  watchEmbedder(embedder: Embedder): Embedder;
}

export function createModelsReadiness(options: { checkRequired: boolean; onMisconfigured?: (model: string, fix: string) => void }): ModelsReadiness {
  let checkFailures: string | null = options.checkRequired ? "the start-up model check has not finished" : null;
  const misconfigured = new Map<string, string>();
  const nameOf = (m: { provider: string; model: string }) => `${m.provider}:${m.model}`;
  const observe = (model: string, err: unknown) => {
    if (isModelError(err) && err.kind === "misconfigured" && err.misconfiguration) {
      if (!misconfigured.has(model)) options.onMisconfigured?.(model, err.misconfiguration.fix);
      misconfigured.set(model, err.misconfiguration.fix);
    }
  };
  return {
    notReadyReason() {
      const reasons = [...(checkFailures ? [checkFailures] : []), ...[...misconfigured].map(([model, fix]) => `model ${model} is misconfigured: ${fix}`)];
      return reasons.length > 0 ? reasons.join("; ") : null;
    },
    recordCheck(rows) {
      const failed = rows.filter((r) => !r.ok);
      checkFailures = failed.length === 0 ? null : `the model check failed for ${failed.map((r) => `${r.role} ${r.model} (${r.fix ?? r.error?.message ?? "failed"})`).join(", ")}`;
    },
    watchGenerator(generator) {
      const model = nameOf(generator);
      return {
        provider: generator.provider,
        model: generator.model,
        temperature: generator.temperature,
        thinking: generator.thinking,
        ...(generator.cachesPrompts === undefined ? {} : { cachesPrompts: generator.cachesPrompts }),
        async generate(req) {
          try {
            const result = await generator.generate(req);
            misconfigured.delete(model);
            return result;
          } catch (err) {
            observe(model, err);
            throw err;
          }
        },
      };
    },
    watchEmbedder(embedder) {
      const model = nameOf(embedder);
      return {
        provider: embedder.provider,
        model: embedder.model,
        async embed(texts, signal) {
          try {
            const vectors = await embedder.embed(texts, signal);
            misconfigured.delete(model);
            return vectors;
          } catch (err) {
            observe(model, err);
            throw err;
          }
        },
      };
    },
  };
}
