import type { IncomingHttpHeaders } from "node:http";
import { startFakeProvider, type RecordedRequest, type Reply } from "../fake-provider.ts";
import type { PromptCacheBook } from "./prompt-cache-book.ts";

/**
 * The shared shape of every strict provider fake (one file per provider beside this one).
 *
 * A strict fake checks each request the way the real provider does, from that provider's
 * own published specification (cited in the fake), BEFORE anything else: a request the real
 * API would refuse is refused with the real status and a real-shaped error body, whatever the
 * test scripted. Only a valid request reaches the test's `reply` override or the default
 * answer. Every refusal is recorded in `refusals`, so a test can assert there were none.
 */

/** One generate call as the fake understood it, handed to the test's answer function. */
export interface ModelCall {
  /** The model named in the body or the path (an Azure deployment, a Bedrock model id, ...). */
  model: string;
  system: string;
  /** The user text parts joined by "\n". */
  user: string;
  /** How many images the call carried. */
  images: number;
}

/** What the fake answers a valid generate call with when the test does not script a reply. */
export type Respond = (call: ModelCall) => string;

/** A deterministic vector for a text, for valid embedding calls. */
export type EmbedText = (text: string, model: string) => number[];

export interface Refusal {
  request: RecordedRequest;
  status: number;
  /** Which rule refused it, in words, with the spec reference, e.g. "temperature is not a property of MessageCreateParams (SDK messages.d.ts)". */
  rule: string;
}

export interface StrictFakeOptions {
  /** The credential the fake accepts (an API key, a bearer token, AWS keys...); others get the provider's 401/403. */
  apiKey?: string;
  /** Default answer for valid generate calls. */
  respond?: Respond;
  embed?: EmbedText;
  /**
   * Scripted answer for a VALID request (faults, odd replies); return undefined for the default.
   * Never consulted for an invalid request.
   */
  reply?: (req: RecordedRequest, index: number) => Reply | undefined;
  /**
   * How long a valid generate call takes to be answered. A prompt-cache entry is readable only
   * once the answer of the call that wrote it has been sent, so calls in flight together miss.
   */
  answerDelayMs?: number;
}

/** A fake of a provider with a prompt cache: `promptCache.accounts` says how each prompt was counted and served. */
export interface PromptCaching {
  promptCache: PromptCacheBook;
}

/**
 * For fakes of providers whose reply names the model that answered. A real provider names
 * the exact version, often not the name asked for (OpenAI answers "gpt-4o" with
 * "gpt-4o-2024-08-06"); this lets a test tell the two apart.
 */
export interface ReportedModelOptions {
  /**
   * The model a generate reply names, given the model asked for (on Azure, the model the
   * deployment serves). Default: the model asked for, echoed. Embedding replies always echo.
   */
  reportedModel?: (requested: string) => string;
}

export interface StrictFake {
  /** Base URL to configure the adapter with (what the operator would set). */
  url: string;
  /** Every request received, valid or not. */
  requests: RecordedRequest[];
  /** The requests the fake refused as the real provider would. */
  refusals: Refusal[];
  maxInFlight: () => number;
  abandoned: () => number;
  close(): Promise<void>;
}

/** A check of one request: null when the real API would accept it. */
export type Check = (req: RecordedRequest) => { status: number; body: unknown; rule: string; headers?: Record<string, string> } | null;

export const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

/** A stable pseudo-embedding: same text, same vector; different texts point different ways. */
export function hashEmbedding(text: string, dimensions: number): number[] {
  const out = new Array<number>(dimensions);
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  for (let i = 0; i < dimensions; i++) {
    h = Math.imul(h ^ (i + 0x9e3779b9), 16777619);
    out[i] = ((h >>> 0) / 0xffffffff) * 2 - 1;
  }
  return out;
}

/**
 * Starts a strict fake on 127.0.0.1: `check` runs first on every request (an invalid one is
 * refused and recorded), then the test's `reply`, then `answer`, the provider's normal reply.
 */
export async function startStrictServer(check: Check, answer: (req: RecordedRequest, index: number) => Reply, options: Pick<StrictFakeOptions, "reply"> = {}): Promise<StrictFake> {
  const refusals: Refusal[] = [];
  const server = await startFakeProvider((req, index) => {
    const refused = check(req);
    if (refused) {
      refusals.push({ request: req, status: refused.status, rule: refused.rule });
      return { status: refused.status, body: refused.body, ...(refused.headers ? { headers: refused.headers } : {}) };
    }
    return options.reply?.(req, index) ?? answer(req, index);
  });
  return { ...server, refusals };
}
