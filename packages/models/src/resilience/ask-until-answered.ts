import { ModelError } from "../model-error.ts";
import type { TokenUsage } from "../types.ts";
import type { ModelTarget } from "./http-failure.ts";

/** How one attempt's answer came back, as an adapter read it from the provider's response. */
export interface AnswerAttempt {
  /** The answer, trimmed; "" when the model wrote none (reasoning and thinking are not answer text). */
  text: string;
  /** Stopped by the output limit: any text is cut off, and a larger limit may let it finish. */
  truncated: boolean;
  /** Declined by the model or the provider's safety filter: asking again would be declined alike. */
  refused: boolean;
  /** The provider's stop reason as `stopReason` wrote it, e.g. "finish reason length"; null when there is none to show. */
  stop: string | null;
  /**
   * Set when the stop reason makes any text unusable though it is neither a cut-off nor a
   * refusal (Gemini RECITATION, Anthropic model_context_window_exceeded): "ask-again" when
   * another draw may well answer, "give-up" when it would fail alike.
   */
  unusable?: "ask-again" | "give-up";
  usage: TokenUsage | undefined;
  /** The exact model the reply says answered, already passed through `reportedModelVersion`; absent when it names none. */
  modelVersion?: string;
}

export interface AnsweredCall {
  text: string;
  /** The model version the answering attempt's reply named: the one whose text this is, not an earlier discarded one. */
  modelVersion?: string;
  /** Summed over every attempt; undefined when no attempt reported any. */
  usage: TokenUsage | undefined;
}

export interface AskOptions {
  /** The output limit of the first attempt: the answer budget plus any reasoning budget. */
  outputLimit: number;
  /** Further attempts after an empty or cut-off answer. */
  retries: number;
}

/**
 * A cut-off answer is asked again with twice the limit, but never more than this many times
 * the first: an answer that does not fit in four budgets is running away, not cut short, and
 * a small multiple stays under every model's output maximum at the default budgets.
 */
export const OUTPUT_LIMIT_GROWTH_CAP = 4;

// Stop reasons are enum-like codes; anything else might be provider prose and is not shown.
const SAFE_CODE = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * A provider's stop reason in words we can show a user, or null when it gave none or the
 * value does not look like a code.
 *
 * @example
 * stopReason("finish reason", "length"); // "finish reason length"
 */
export function stopReason(field: string, value: unknown): string | null {
  return typeof value === "string" && SAFE_CODE.test(value) ? `${field} ${value}` : null;
}

/**
 * Calls `attempt` until it brings a usable answer: an empty one is asked again, a cut-off one
 * again with double the output limit, at most `retries` more times; a refusal is not asked
 * again. Usage is summed over every attempt because the unusable ones are billed too; the model
 * version is the answering attempt's alone, since that reply produced the text. Each attempt
 * runs its own transport retries (the CallPolicy) inside `attempt`.
 *
 * @example
 * const { text, usage } = await askUntilAnswered(target, { outputLimit: 1024, retries: 2 }, (limit) => callOnce(limit));
 */
export async function askUntilAnswered(target: ModelTarget, options: AskOptions, attempt: (outputLimit: number) => Promise<AnswerAttempt>): Promise<AnsweredCall> {
  const ceiling = options.outputLimit * OUTPUT_LIMIT_GROWTH_CAP;
  let outputLimit = options.outputLimit;
  let usage: TokenUsage | undefined;
  for (let attempts = 1; ; attempts++) {
    const answer = await attempt(outputLimit);
    usage = addUsage(usage, answer.usage);
    if (answer.text && !answer.truncated && !answer.refused && !answer.unusable) return { text: answer.text, usage, ...(answer.modelVersion === undefined ? {} : { modelVersion: answer.modelVersion }) };
    if (answer.refused || answer.unusable === "give-up" || attempts > options.retries) throw unusableAnswer(target, answer, outputLimit, attempts, usage);
    if (answer.truncated) outputLimit = Math.min(outputLimit * 2, ceiling);
  }
}

function unusableAnswer(target: ModelTarget, last: AnswerAttempt, outputLimit: number, attempts: number, usage: TokenUsage | undefined): ModelError {
  const stop = last.stop ? ` (${last.stop})` : "";
  const reasoningTokens = last.usage?.reasoningTokens ?? 0;
  let what: string;
  let reason: string;
  if (last.refused) {
    // A refusal is about this image or text, not a broken answer: asking again, or replacing the sample, would be declined alike.
    return new ModelError({ ...target, kind: "refused", message: `${target.provider} model ${target.model} refused to answer${stop}`, ...(last.stop ? { reason: last.stop } : {}), usage });
  }
  if (last.unusable) {
    what = `returned an answer that cannot be used${stop}`;
    reason = `the answer was stopped before it was complete${stop}`;
  } else if (last.truncated && !last.text) {
    const details = [last.stop, reasoningTokens > 0 ? `${reasoningTokens} reasoning tokens` : null].filter((d) => d !== null);
    what = `returned no text: the output limit of ${outputLimit} tokens was used up${details.length > 0 ? ` (${details.join(", ")})` : ""}`;
    reason = `no text, the output limit was used up${reasoningTokens > 0 ? " by reasoning" : ""}${stop}`;
  } else if (last.truncated) {
    what = `returned an answer cut off by the output limit of ${outputLimit} tokens${stop}`;
    reason = `the answer was cut off by the output limit${stop}`;
  } else {
    what = `returned no text${stop}`;
    reason = `no text${stop}`;
  }
  return new ModelError({
    ...target,
    kind: "bad_response",
    message: `${target.provider} model ${target.model} ${what}${attempts > 1 ? ` after ${attempts} attempts` : ""}`,
    reason,
    usage,
  });
}

function addUsage(total: TokenUsage | undefined, more: TokenUsage | undefined): TokenUsage | undefined {
  if (!more) return total;
  if (!total) return { ...more };
  const sum = (key: "reasoningTokens" | "cachedInputTokens" | "cacheWriteInputTokens") => (total[key] === undefined && more[key] === undefined ? {} : { [key]: (total[key] ?? 0) + (more[key] ?? 0) });
  return {
    inputTokens: total.inputTokens + more.inputTokens,
    outputTokens: total.outputTokens + more.outputTokens,
    ...sum("reasoningTokens"),
    ...sum("cachedInputTokens"),
    ...sum("cacheWriteInputTokens"),
  };
}
