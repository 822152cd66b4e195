import { isModelError } from "../model-error.ts";
import type { Embedder, Generator, ImageInput } from "../types.ts";
import { CHECK_IMAGE_PNG } from "./check-image.ts";

export type CheckRole = "generator" | "embedder" | "voter";

/** One configured model's answer to its smallest real call. */
export interface ModelCheckRow {
  role: CheckRole;
  /** provider:model */
  model: string;
  ok: boolean;
  latencyMs: number;
  inputTokens: number | null;
  outputTokens: number | null;
  /** The error kind and our sentence when it failed; never a key or a provider's body. */
  error: { kind: string; message: string } | null;
  /** What the operator should change, when the failure says. */
  fix: string | null;
}

export interface ModelsToCheck {
  generators?: readonly Generator[];
  embedder?: Embedder;
  voters?: readonly Generator[];
}

const image: ImageInput = { bytes: CHECK_IMAGE_PNG, mime: "image/png" };
const SYSTEM = "You are checking that a model configuration works. Answer briefly.";

const nameOf = (m: { provider: string; model: string }) => `${m.provider}:${m.model}`;

/** Each model once per role: a panel may seat one model several times. */
function distinct<T extends { provider: string; model: string }>(models: readonly T[]): T[] {
  const seen = new Set<string>();
  return models.filter((m) => !seen.has(nameOf(m)) && Boolean(seen.add(nameOf(m))));
}

/**
 * Makes one minimal real call per configured model and role: a generator describes one small
 * image, a voter picks between two, the embedder embeds one sentence. Calls run one after
 * another so a provider's rate limit is not the thing measured.
 *
 * @example
 * const rows = await checkModels({ generators, embedder, voters }, { timeoutMs: 30_000 });
 * const broken = rows.filter((r) => !r.ok);
 */
export async function checkModels(models: ModelsToCheck, options: { signal?: AbortSignal; timeoutMs?: number; now?: () => number } = {}): Promise<ModelCheckRow[]> {
  const now = options.now ?? (() => performance.now());
  const rows: ModelCheckRow[] = [];
  const run = async (role: CheckRole, model: string, call: (signal: AbortSignal) => Promise<{ inputTokens: number | null; outputTokens: number | null }>) => {
    const signal = AbortSignal.any([options.signal ?? new AbortController().signal, AbortSignal.timeout(options.timeoutMs ?? 60_000)]);
    const started = now();
    try {
      const tokens = await call(signal);
      rows.push({ role, model, ok: true, latencyMs: Math.round(now() - started), ...tokens, error: null, fix: null });
    } catch (err) {
      const latencyMs = Math.round(now() - started);
      if (isModelError(err)) {
        rows.push({ role, model, ok: false, latencyMs, inputTokens: null, outputTokens: null, error: { kind: err.kind, message: err.message }, fix: err.misconfiguration?.fix ?? null });
      } else {
        rows.push({ role, model, ok: false, latencyMs, inputTokens: null, outputTokens: null, error: { kind: "error", message: err instanceof Error ? err.message : String(err) }, fix: null });
      }
    }
  };
  const generate = (generator: Generator, images: ImageInput[], user: string) => async (signal: AbortSignal) => {
    const result = await generator.generate({ system: SYSTEM, user, images, signal, maxOutputTokens: 64 });
    return { inputTokens: result.usage?.inputTokens ?? null, outputTokens: result.usage?.outputTokens ?? null };
  };

  for (const g of distinct(models.generators ?? [])) {
    await run("generator", nameOf(g), generate(g, [image], "In one short sentence, what colours does this image show?"));
  }
  if (models.embedder) {
    const embedder = models.embedder;
    await run("embedder", nameOf(embedder), async (signal) => {
      const vectors = await embedder.embed(["I would stop scrolling for this ad."], signal);
      if (vectors.length !== 1 || !(vectors[0]!.length > 0)) throw new Error(`returned ${vectors.length} vectors for 1 text`);
      return { inputTokens: null, outputTokens: null };
    });
  }
  for (const v of distinct(models.voters ?? [])) {
    await run("voter", nameOf(v), generate(v, [image, image], "Which image do you prefer? End with a line WINNER: 1 or WINNER: 2."));
  }
  return rows;
}
