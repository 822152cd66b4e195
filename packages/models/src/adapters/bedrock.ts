import {
  BedrockRuntimeClient,
  ConverseCommand,
  InvokeModelCommand,
  type BedrockRuntimeClientConfig,
  type ContentBlock,
  type ConverseCommandInput,
  type ConverseResponse,
  type ImageFormat,
} from "@aws-sdk/client-bedrock-runtime";
import { AwsSdkSigV4Signer } from "@aws-sdk/core/httpAuthSchemes";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { bedrockModelRules, bedrockStopMeaning, type BedrockModelRules } from "../capabilities/bedrock.ts";
import { bedrockPromptCacheMinimum, cachesScoringPrefix } from "../capabilities/prompt-cache.ts";
import { ModelError } from "../model-error.ts";
import { askUntilAnswered, stopReason, type AnswerAttempt } from "../resilience/ask-until-answered.ts";
import { createCallPolicy, type CallPolicy } from "../resilience/call-policy.ts";
import { badResponse, modelErrorFromHttpFailure, type HttpFailure, type ModelTarget } from "../resilience/http-failure.ts";
import type { ModelSettings } from "../resilience/model-settings.ts";
import { retryAfterMs } from "../resilience/retry-after.ts";
import type { Embedder, GenerateRequest, GenerateResult, Generator, ImageInput, TokenUsage } from "../types.ts";
import { DEFAULT_ANSWER_RETRIES, DEFAULT_MAX_OUTPUT_TOKENS, type GenerationOptions } from "./generation-options.ts";
import { labelledImages } from "./prompt-parts.ts";
import { sentSettingStatement } from "./sent-setting-statement.ts";

/** Smallest Claude thinking budget on Bedrock (extended-thinking page). */
export const BEDROCK_MIN_THINKING_BUDGET = 1024;

/** Where and as whom to call Bedrock. Everything is explicit: nothing is read from the environment, ~/.aws or instance metadata. */
export interface BedrockCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  /** For temporary (STS) credentials. */
  sessionToken?: string;
}

export interface BedrockConnection {
  /** The name errors and logs give this provider (a profile name); default "bedrock". */
  provider?: string;
  /** e.g. "eu-central-1"; also the signing region. */
  region: string;
  /** Static keys; the SDK's own credential chain is never consulted. */
  credentials: BedrockCredentials;
  /** Override of the regional endpoint https://bedrock-runtime.{region}.amazonaws.com (a VPC endpoint, or a test server). */
  endpoint?: string;
  /** Shared retry, timeout and concurrency policy; one per provider. */
  policy?: CallPolicy;
  /** Names of the operator's settings behind this model, for the fix sentence of a misconfiguration. */
  settings?: ModelSettings;
}

export interface BedrockOptions extends GenerationOptions, BedrockConnection {
  /** A model id or inference profile id, e.g. "us.anthropic.claude-sonnet-4-5-20250929-v1:0". */
  model: string;
  /**
   * Turns Claude thinking on. Claude 4-4.5 take it as a budget (at least 1024 tokens, added to
   * maxTokens); Opus 4.6/Sonnet 4.6/Opus 4.7 think adaptively (no budget sent, the budget is
   * still added to maxTokens as room for the thinking). Refused at start for other models.
   */
  thinkingBudget?: number;
}

export interface BedrockEmbedderOptions extends BedrockConnection {
  /** Default "amazon.titan-embed-text-v2:0". */
  model?: string;
  /** Titan V2 accepts 256, 512 or 1024 (default 1024). */
  dimensions?: 256 | 512 | 1024;
}

export const BEDROCK_DEFAULT_EMBEDDING_MODEL = "amazon.titan-embed-text-v2:0";

const IMAGE_FORMAT: Record<ImageInput["mime"], ImageFormat> = { "image/jpeg": "jpeg", "image/png": "png", "image/webp": "webp" };

/**
 * A Bedrock Runtime client that uses exactly what it is given. Every setting the SDK would
 * otherwise look up (credentials chain, region, AWS_BEARER_TOKEN_BEDROCK, AWS_ENDPOINT_URL*,
 * AWS_MAX_ATTEMPTS, AWS_DEFAULTS_MODE, AWS_SDK_UA_APP_ID, ~/.aws/config, IMDS) is passed
 * explicitly so that nothing ambient changes what is sent.
 */
function bedrockClient(connection: BedrockConnection, policy: CallPolicy): BedrockRuntimeClient {
  const given = connection.credentials;
  // A copy: later changes to the caller's object do not reach the signer.
  const credentials = { accessKeyId: given.accessKeyId, secretAccessKey: given.secretAccessKey, ...(given.sessionToken ? { sessionToken: given.sessionToken } : {}) };
  const config: BedrockRuntimeClientConfig & { ignoreConfiguredEndpointUrls: boolean; disableClockSkewCorrection: boolean } = {
    region: connection.region,
    credentials,
    // Only SigV4: otherwise an AWS_BEARER_TOKEN_BEDROCK in the environment switches auth to a bearer token.
    authSchemePreference: ["sigv4"],
    httpAuthSchemes: [{ schemeId: "aws.auth#sigv4", identityProvider: (ipc) => ipc.getIdentityProvider("aws.auth#sigv4"), signer: new AwsSdkSigV4Signer() }],
    // Our CallPolicy is the only retry layer.
    maxAttempts: 1,
    retryMode: "standard",
    defaultsMode: "standard",
    useFipsEndpoint: false,
    useDualstackEndpoint: false,
    userAgentAppId: async () => undefined,
    ignoreConfiguredEndpointUrls: true,
    disableClockSkewCorrection: false,
    // HTTP/1.1: the SDK's default HTTP/2 handler is only needed for bidirectional streaming.
    requestHandler: new NodeHttpHandler({ requestTimeout: policy.timeoutMs + 5_000 }),
    ...(connection.endpoint ? { endpoint: connection.endpoint } : {}),
  };
  return new BedrockRuntimeClient(config);
}

interface SdkFailure {
  name?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
  $response?: { headers?: Record<string, string | undefined> };
}

const CREDENTIAL_ERRORS = new Set([
  "AccessDeniedException",
  "UnrecognizedClientException",
  "InvalidSignatureException",
  "IncompleteSignatureException",
  "MissingAuthenticationTokenException",
  "ExpiredTokenException",
  "InvalidClientTokenId",
]);

/** What a ValidationException's message says is wrong: the content, a parameter, the model id, or the request. */
function validationMeaning(message: string): HttpFailure["meaning"] {
  if (/image|could not process|unable to process the (input|content)|content (is )?(blocked|not allowed)/i.test(message)) return "content";
  if (/model identifier is invalid|inference profile|on-demand throughput/i.test(message)) return "unknown_model";
  if (/temperature|top_?p\b|top_?k\b|maxTokens|max_tokens|thinking|budget_tokens|extraneous key|not permitted|not supported|deprecated/i.test(message)) return "unsupported_parameter";
  return undefined;
}

/** Maps the SDK's exceptions by name, then status, to our error kinds. */
function classify(target: ModelTarget, now: () => number) {
  return (err: unknown): ModelError => {
    const e = (err ?? {}) as SdkFailure;
    const status = e.$metadata?.httpStatusCode;
    if (status === undefined && !e.$metadata) {
      // No response: connection refused or reset, or our own parsing failed.
      if (err instanceof SyntaxError || err instanceof TypeError) return badResponse(target, "failed while handling the response", err);
      return modelErrorFromHttpFailure(target, { cause: err });
    }
    const headers = e.$response?.headers ?? {};
    const wait = retryAfterMs({ get: (name) => headers[name] ?? headers[name.toLowerCase()] }, now());
    const name = e.name ?? "";
    const failure = { status, retryAfterMs: wait, code: name || null, cause: err };
    if (CREDENTIAL_ERRORS.has(name)) return modelErrorFromHttpFailure(target, { ...failure, status: status ?? 403, meaning: "credentials" });
    if (name === "ResourceNotFoundException") return modelErrorFromHttpFailure(target, { ...failure, meaning: "unknown_model" });
    if (name === "ServiceQuotaExceededException") return modelErrorFromHttpFailure(target, { ...failure, meaning: "quota_exhausted" });
    if (name === "ValidationException") {
      const meaning = validationMeaning(e.message ?? "");
      return modelErrorFromHttpFailure(target, { ...failure, ...(meaning ? { meaning } : {}) });
    }
    if (name === "ModelTimeoutException") return new ModelError({ ...target, kind: "timeout", status, retryAfterMs: wait, message: `${target.provider} model ${target.model} timed out while answering (${name})`, cause: err });
    if (name === "ModelErrorException" || name === "ModelNotReadyException" || name === "ServiceUnavailableException" || name === "InternalServerException") {
      return new ModelError({ ...target, kind: "unavailable", status, retryAfterMs: wait, message: `${target.provider} is unavailable for model ${target.model} (HTTP ${status}, ${name})`, cause: err });
    }
    // ThrottlingException (429) and the rest: the status decides.
    return modelErrorFromHttpFailure(target, failure);
  };
}

function usageOf(response: ConverseResponse): TokenUsage | undefined {
  const usage = response.usage;
  if (!usage) return undefined;
  // Converse reports no separate reasoning count: outputTokens already includes any thinking.
  // Cache reads and writes are reported beside inputTokens (SDK TokenUsage), and all are prompt tokens.
  const read = usage.cacheReadInputTokens;
  const written = usage.cacheWriteInputTokens;
  return {
    inputTokens: (usage.inputTokens ?? 0) + (read ?? 0) + (written ?? 0),
    outputTokens: usage.outputTokens ?? 0,
    ...(typeof read === "number" ? { cachedInputTokens: read } : {}),
    ...(typeof written === "number" ? { cacheWriteInputTokens: written } : {}),
  };
}

function answerOf(response: ConverseResponse): AnswerAttempt {
  // Reasoning blocks are the model's scratch work, not its answer.
  const text = (response.output?.message?.content ?? [])
    .flatMap((block) => (typeof block.text === "string" ? [block.text] : []))
    .join("")
    .trim();
  const meaning = bedrockStopMeaning(response.stopReason);
  return {
    text,
    truncated: meaning === "truncated",
    refused: meaning === "refused",
    stop: stopReason("stop reason", response.stopReason),
    ...(meaning === "unusable-ask-again" ? { unusable: "ask-again" as const } : meaning === "unusable-give-up" ? { unusable: "give-up" as const } : {}),
    usage: usageOf(response),
    // No modelVersion: ConverseResponse (SDK models_0.d.ts) has output, stopReason, usage, metrics,
    // additionalModelResponseFields, trace, performanceConfig and serviceTier, and none of them
    // names the model that answered for a model or inference-profile id.
  };
}

function thinkingFields(rules: BedrockModelRules, budget: number | undefined): Record<string, unknown> | undefined {
  if (budget === undefined) return undefined;
  if (rules.thinking === "budget") return { thinking: { type: "enabled", budget_tokens: budget } };
  if (rules.thinking === "adaptive") return { thinking: { type: "adaptive" } };
  return undefined;
}

/**
 * A generator on Amazon Bedrock's Converse API, signed with SigV4 from the credentials given.
 * Temperature, thinking and the output limit follow `bedrockModelRules(model)`; an empty or
 * cut-off answer is asked again (see `askUntilAnswered`).
 *
 * @example
 * const gen = createBedrockGenerator({ model: "eu.anthropic.claude-sonnet-4-5-20250929-v1:0", region: "eu-central-1", accessKeyId, secretAccessKey });
 */
export function createBedrockGenerator(options: BedrockOptions): Generator {
  const provider = options.provider ?? "bedrock";
  const model = options.model;
  const target: ModelTarget = { provider, model, ...(options.settings ? { settings: options.settings } : {}) };
  const rules = bedrockModelRules(model);
  const policy = options.policy ?? createCallPolicy();
  const thinkingBudget = options.thinkingBudget;
  if (thinkingBudget !== undefined) {
    if (rules.thinking === "none") throw new RangeError(`Bedrock model ${model} takes no thinking budget; remove it from the model's options`);
    if (!(Number.isInteger(thinkingBudget) && thinkingBudget >= BEDROCK_MIN_THINKING_BUDGET)) {
      throw new RangeError(`A Bedrock Claude thinking budget must be a whole number of at least ${BEDROCK_MIN_THINKING_BUDGET} tokens, got ${thinkingBudget}`);
    }
  }
  const takesTemperature = rules.temperature !== null && thinkingBudget === undefined;
  const clamp = (t: number) => (rules.temperature ? Math.min(rules.temperature.max, Math.max(rules.temperature.min, t)) : t);
  const temperature = takesTemperature && options.temperature !== undefined ? clamp(options.temperature) : null;
  const answerBudget = options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  const retries = options.answerRetries ?? DEFAULT_ANSWER_RETRIES;
  const client = bedrockClient(options, policy);
  const additional = thinkingFields(rules, thinkingBudget);
  const cacheMinimum = bedrockPromptCacheMinimum(model);

  return {
    provider,
    model,
    temperature,
    thinking: sentSettingStatement(additional),
    cachesPrompts: cachesScoringPrefix(cacheMinimum),
    async generate(req: GenerateRequest): Promise<GenerateResult> {
      const content: ContentBlock[] = [];
      for (const { label, image } of labelledImages(req.images)) {
        if (label) content.push({ text: label });
        content.push({ image: { format: IMAGE_FORMAT[image.mime], source: { bytes: image.bytes } } });
      }
      // The system text and the image are the stable prefix of every sample of an evaluation:
      // a cache checkpoint right after the image caches them, on models that take one
      // (https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html; SDK CachePointBlock).
      if (cacheMinimum !== null && req.images.length > 0) content.push({ cachePoint: { type: "default" } });
      content.push({ text: req.user });
      const sentTemperature = takesTemperature ? (req.temperature !== undefined ? clamp(req.temperature) : temperature) : null;
      const inputFor = (outputLimit: number): ConverseCommandInput => ({
        modelId: model,
        messages: [{ role: "user", content }],
        // A blank system block is refused by Converse; an empty prompt sends none.
        ...(req.system ? { system: [{ text: req.system }] } : {}),
        inferenceConfig: { maxTokens: outputLimit, ...(sentTemperature === null ? {} : { temperature: sentTemperature }) },
        ...(additional ? { additionalModelRequestFields: additional as NonNullable<ConverseCommandInput["additionalModelRequestFields"]> } : {}),
      });
      const firstLimit = Math.min((req.maxOutputTokens ?? answerBudget) + (thinkingBudget ?? 0), rules.maxOutputTokens);
      const answered = await askUntilAnswered(target, { outputLimit: firstLimit, retries }, async (outputLimit) => {
        // Growth stops at the model's own maximum, which Converse enforces.
        const input = inputFor(Math.min(outputLimit, rules.maxOutputTokens));
        const response = await policy.run(target, req.signal, (signal) => client.send(new ConverseCommand(input), { abortSignal: signal }), classify(target, policy.now), { deadlineAt: req.deadlineAt });
        return answerOf(response);
      });
      return { text: answered.text, provider, model, simulated: false, ...(answered.usage ? { usage: answered.usage } : {}) };
    },
  };
}

/**
 * An embedder on Titan Text Embeddings V2 through InvokeModel: one text per call (the model
 * takes a single `inputText`), calls in parallel up to the policy's concurrency.
 */
export function createBedrockEmbedder(options: BedrockEmbedderOptions): Embedder {
  const provider = options.provider ?? "bedrock";
  const model = options.model ?? BEDROCK_DEFAULT_EMBEDDING_MODEL;
  const target: ModelTarget = { provider, model, ...(options.settings ? { settings: options.settings } : {}) };
  const policy = options.policy ?? createCallPolicy();
  const client = bedrockClient(options, policy);
  const dimensions = options.dimensions;

  async function embedOne(text: string, signal: AbortSignal | undefined): Promise<number[]> {
    const body = JSON.stringify({ inputText: text, ...(dimensions ? { dimensions } : {}), normalize: true });
    const response = await policy.run(
      target,
      signal,
      (attemptSignal) => client.send(new InvokeModelCommand({ modelId: model, contentType: "application/json", accept: "application/json", body }), { abortSignal: attemptSignal }),
      classify(target, policy.now),
    );
    let parsed: { embedding?: unknown };
    try {
      parsed = JSON.parse(new TextDecoder().decode(response.body)) as { embedding?: unknown };
    } catch (err) {
      throw badResponse(target, "answered with a body that is not JSON", err);
    }
    const vector = parsed.embedding;
    if (!Array.isArray(vector) || vector.length === 0 || !vector.every((x) => typeof x === "number")) throw badResponse(target, "answered without an embedding vector");
    return vector as number[];
  }

  return {
    provider,
    model,
    async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
      return Promise.all(texts.map((text) => embedOne(text, signal)));
    },
  };
}
