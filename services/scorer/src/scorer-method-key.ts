import type { Embedder, Generator } from "@adrank/models";
import { METHOD_VERSION } from "@adrank/ssr";
import { promptTemplateHash } from "./evaluation-receipt.ts";
import { methodKeyOf } from "./method-key.ts";

/**
 * This scorer's method key (methodKeyOf) from its configured models: put on every
 * evaluation it answers and on its presence answer, so the gateway reuses only evaluations this
 * exact method produced.
 */
export function scorerMethodKey(models: {
  generators: readonly Pick<Generator, "provider" | "model" | "temperature" | "thinking">[];
  embedder: Pick<Embedder, "provider" | "model">;
  similarityLimit: number;
}): string {
  return methodKeyOf({
    methodVersion: METHOD_VERSION,
    promptHash: promptTemplateHash(),
    generators: models.generators.map((g) => ({ model: `${g.provider}:${g.model}`, temperature: g.temperature, thinking: g.thinking })),
    embedder: `${models.embedder.provider}:${models.embedder.model}`,
    similarityLimit: models.similarityLimit,
  });
}
