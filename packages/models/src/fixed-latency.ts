import { ModelError } from "./model-error.ts";
import { realSleep, type Sleep } from "./resilience/sleep.ts";
import type { Generator } from "./types.ts";

/**
 * A generator that waits `latencyMs` before every call, for benchmarks that need a model of
 * known, fixed latency. Cancelling the request's signal ends the wait at once.
 *
 * @example
 * const slowSim = withFixedLatency(createSimGenerator(), 250);
 */
export function withFixedLatency(inner: Generator, latencyMs: number, sleep: Sleep = realSleep): Generator {
  if (latencyMs <= 0) return inner;
  return {
    provider: inner.provider,
    model: inner.model,
    temperature: inner.temperature,
    thinking: inner.thinking,
    ...(inner.cachesPrompts === undefined ? {} : { cachesPrompts: inner.cachesPrompts }),
    async generate(req) {
      try {
        await sleep(latencyMs, req.signal);
      } catch (err) {
        throw new ModelError({ provider: inner.provider, model: inner.model, kind: "aborted", message: `call to ${inner.provider} model ${inner.model} was cancelled`, cause: err });
      }
      return inner.generate(req);
    },
  };
}
