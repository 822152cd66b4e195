import { SpanKind } from "@opentelemetry/api";
import type { Embedder, Generator } from "@adrank/models";
import { LATENCY_BUCKETS, type Metrics } from "./metrics.ts";
import { inSpan } from "./spans.ts";

/** Instruments for model calls, shared by every model of a process. */
export function modelCallInstruments(metrics: Metrics) {
  return {
    latency: metrics.histogram("adrank_model_call_seconds", "Model call latency by provider, model, operation and outcome.", ["provider", "model", "operation", "outcome"], LATENCY_BUCKETS),
    errors: metrics.counter("adrank_model_call_errors_total", "Failed model calls by provider, model and error kind.", ["provider", "model", "operation", "kind"]),
    // Model spend: what the provider billed, reasoning included in output. Per account, the ledger's usage events hold it.
    tokens: metrics.counter("adrank_model_tokens_total", "Tokens sent to (input) and returned by (output, reasoning included) generator models, by provider and model.", ["provider", "model", "direction"]),
  };
}
export type ModelCallInstruments = ReturnType<typeof modelCallInstruments>;

const kindOf = (err: unknown) => (typeof err === "object" && err !== null && "kind" in err ? String((err as { kind: unknown }).kind) : "error");

async function observed<T>(instruments: ModelCallInstruments, target: { provider: string; model: string; operation: string }, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    const result = await run();
    instruments.latency.observe({ ...target, outcome: "ok" }, (performance.now() - started) / 1000);
    return result;
  } catch (err) {
    instruments.latency.observe({ ...target, outcome: "error" }, (performance.now() - started) / 1000);
    instruments.errors.inc({ ...target, kind: kindOf(err) });
    throw err;
  }
}

/**
 * A generator whose every call is a span with the OpenTelemetry GenAI attributes (system,
 * model, operation, token usage when the provider reports it) and a latency observation.
 * Prompts, answers and images are never attributes.
 */
export function instrumentGenerator(generator: Generator, instruments: ModelCallInstruments): Generator {
  const target = { provider: generator.provider, model: generator.model, operation: "chat" };
  return {
    provider: generator.provider,
    model: generator.model,
    temperature: generator.temperature,
    thinking: generator.thinking,
    generate: (req) =>
      inSpan(
        `chat ${generator.model}`,
        { kind: SpanKind.CLIENT, attributes: { "gen_ai.system": generator.provider, "gen_ai.operation.name": "chat", "gen_ai.request.model": generator.model, "adrank.images": req.images.length } },
        (span) =>
          observed(instruments, target, async () => {
            const result = await generator.generate(req);
            if (result.usage?.inputTokens !== undefined) {
              span.setAttribute("gen_ai.usage.input_tokens", result.usage.inputTokens);
              instruments.tokens.inc({ provider: generator.provider, model: generator.model, direction: "input" }, result.usage.inputTokens);
            }
            if (result.usage?.outputTokens !== undefined) {
              span.setAttribute("gen_ai.usage.output_tokens", result.usage.outputTokens);
              instruments.tokens.inc({ provider: generator.provider, model: generator.model, direction: "output" }, result.usage.outputTokens);
            }
            // The model the provider says answered (a dated snapshot), not the name we asked for.
            span.setAttribute("gen_ai.response.model", result.modelVersion ?? result.model);
            return result;
          }),
      ),
  };
}

/** The same for an embedder: one span and one observation per batch. */
export function instrumentEmbedder(embedder: Embedder, instruments: ModelCallInstruments): Embedder {
  const target = { provider: embedder.provider, model: embedder.model, operation: "embeddings" };
  return {
    provider: embedder.provider,
    model: embedder.model,
    embed: (texts, signal) =>
      inSpan(
        `embeddings ${embedder.model}`,
        { kind: SpanKind.CLIENT, attributes: { "gen_ai.system": embedder.provider, "gen_ai.operation.name": "embeddings", "gen_ai.request.model": embedder.model, "adrank.texts": texts.length } },
        () => observed(instruments, target, () => embedder.embed(texts, signal)),
      ),
  };
}
