import { createSign } from "node:crypto";
import { readFileSync } from "node:fs";
import { GoogleGenAI, type GoogleGenAIOptions } from "@google/genai";
import { geminiModelRules, thinkingPlan } from "../capabilities/gemini.ts";
import { ModelError, isModelError } from "../model-error.ts";
import { createCallPolicy, type CallPolicy } from "../resilience/call-policy.ts";
import { badResponse, modelErrorFromHttpFailure, type ModelTarget } from "../resilience/http-failure.ts";
import type { ModelSettings } from "../resilience/model-settings.ts";
import type { Embedder, Generator } from "../types.ts";
import type { GenerationOptions } from "./generation-options.ts";
import { attemptWithProbe, DEFAULT_GEMINI_THINKING_BUDGET, geminiFamilyGenerator, unexpected, userContent, type GeminiThinkingOptions, type ProbeFetch } from "./gemini.ts";

/** The fields of a Google service-account key file we use (the JSON downloaded from IAM). */
export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  project_id?: string;
  /** Where the signed assertion is exchanged for an access token; default Google's. */
  token_uri?: string;
}

export const GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token";
/** The scope Vertex AI requires (SDK node/index.mjs REQUIRED_VERTEX_AI_SCOPE). */
export const VERTEX_SCOPE = "https://www.googleapis.com/auth/cloud-platform";

/** Vertex AI versions: v1 is GA and takes thinkingConfig; the SDK's own default is v1beta1. */
export type VertexApiVersion = "v1" | "v1beta1";

export interface VertexConnection {
  model: string;
  /** Label in results and errors: "vertex", or the name of a provider profile. Default "vertex". */
  provider?: string;
  /** A key file's path, or the parsed key. */
  serviceAccount: string | ServiceAccountKey;
  /** Default: the key's project_id. */
  project?: string;
  /** A region such as "us-central1", or "global". */
  location: string;
  /** Default: the SDK's endpoint for the location (https://{location}-aiplatform.googleapis.com). */
  baseURL?: string;
  /** Default "v1". */
  apiVersion?: VertexApiVersion;
  policy?: CallPolicy;
  settings?: ModelSettings;
}

export interface VertexOptions extends VertexConnection, GenerationOptions, GeminiThinkingOptions {}

export interface VertexEmbedderOptions extends VertexConnection {
  /** Default SEMANTIC_SIMILARITY. */
  taskType?: string;
  dimensions?: number;
}

const base64url = (data: string | Buffer) => Buffer.from(data).toString("base64url");

/** How long one token exchange may take; every call waiting for it shares the one exchange. */
const TOKEN_EXCHANGE_TIMEOUT_MS = 30_000;

/** `shared`, or the caller's abort, whichever comes first; the shared promise runs on for the others. */
function untilAborted<T>(shared: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener("abort", onAbort, { once: true });
    shared.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(err as Error);
      },
    );
  });
}

/**
 * A token source for one service account: the OAuth 2.0 JWT-bearer grant
 * (https://developers.google.com/identity/protocols/oauth2/service-account#httprest): an RS256
 * assertion {iss: client_email, scope, aud: token_uri, iat, exp <= iat + 3600} posted to the
 * key's token_uri. Done here rather than by google-auth-library, whose gtoken posts to a fixed
 * URL and ignores the key's token_uri (node_modules/google-auth-library/build/src/gtoken/getToken.js).
 */
export function serviceAccountTokens(key: ServiceAccountKey, target: ModelTarget, now: () => number = Date.now) {
  const tokenUri = key.token_uri ?? GOOGLE_TOKEN_URI;
  let cached: { token: string; expiresAt: number } | undefined;
  let pending: Promise<string> | undefined;

  const assertion = () => {
    const iat = Math.floor(now() / 1000);
    const header = base64url(JSON.stringify({ alg: "RS256", typ: "JWT", ...(key.private_key_id ? { kid: key.private_key_id } : {}) }));
    const claims = base64url(JSON.stringify({ iss: key.client_email, scope: VERTEX_SCOPE, aud: tokenUri, iat, exp: iat + 3600 }));
    const signature = createSign("RSA-SHA256").update(`${header}.${claims}`).sign(key.private_key);
    return `${header}.${claims}.${base64url(signature)}`;
  };

  // One exchange serves every call waiting for a token, so it runs on its own time limit, never
  // on one caller's signal: a cancelled request must not fail another tenant's call.
  const exchange = async (): Promise<string> => {
    let response: Response;
    try {
      response = await fetch(tokenUri, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion: assertion() }).toString(),
        signal: AbortSignal.timeout(TOKEN_EXCHANGE_TIMEOUT_MS),
      });
    } catch (err) {
      throw modelErrorFromHttpFailure(target, { cause: err });
    }
    const body = (await response.json().catch(() => ({}))) as { access_token?: unknown; expires_in?: unknown; error?: unknown };
    if (!response.ok) {
      // invalid_grant / invalid_client / unauthorized_client: the key is wrong, revoked or lacks rights.
      const code = typeof body.error === "string" ? body.error : null;
      throw modelErrorFromHttpFailure(target, { status: response.status, code, ...(response.status < 500 && response.status !== 429 ? { meaning: "credentials" as const } : {}), cause: new Error(`token endpoint answered ${response.status}`) });
    }
    if (typeof body.access_token !== "string") throw badResponse(target, "got no access token from the token endpoint");
    const lifetime = typeof body.expires_in === "number" ? body.expires_in : 3600;
    // Renewed a minute early, so a token never expires in flight.
    cached = { token: body.access_token, expiresAt: now() + (lifetime - 60) * 1000 };
    return body.access_token;
  };

  return {
    tokenUri,
    /** A valid access token, exchanged again only when the last one is about to expire. */
    async token(signal?: AbortSignal): Promise<string> {
      if (cached && cached.expiresAt > now()) return cached.token;
      pending ??= exchange().finally(() => {
        pending = undefined;
      });
      return signal ? untilAborted(pending, signal) : pending;
    },
  };
}

function readKey(source: string | ServiceAccountKey): ServiceAccountKey {
  const key = typeof source === "string" ? (JSON.parse(readFileSync(source, "utf8")) as ServiceAccountKey) : source;
  if (typeof key.client_email !== "string" || typeof key.private_key !== "string") throw new Error("the service-account key has no client_email or private_key");
  return key;
}

interface VertexClient {
  client: GoogleGenAI;
  target: ModelTarget;
  policy: CallPolicy;
  tokens: ReturnType<typeof serviceAccountTokens>;
}

/**
 * The SDK in Vertex mode with every value explicit (project, location, version, base URL), so
 * no GOOGLE_CLOUD_PROJECT, GOOGLE_CLOUD_LOCATION, GOOGLE_VERTEX_BASE_URL, GOOGLE_API_KEY or
 * GOOGLE_GENAI_* reaches it (constructor in node/index.mjs). Its auth client is a stub that
 * adds nothing: each call carries our own bearer token, and google-auth-library never looks
 * for Application Default Credentials (it only calls `getRequestHeaders` on a given
 * authClient: google-auth-library auth/googleauth.js).
 */
function createVertexClient(options: VertexConnection, provider: string): VertexClient {
  const key = readKey(options.serviceAccount);
  const project = options.project ?? key.project_id;
  if (!project) throw new Error("Vertex AI needs a project: set it, or use a key file with project_id");
  const target: ModelTarget = { provider, model: options.model, ...(options.settings ? { settings: options.settings } : {}) };
  const policy = options.policy ?? createCallPolicy();
  const apiVersion = options.apiVersion ?? "v1";
  const addsNothing = { getRequestHeaders: async () => new Headers() };
  const init: GoogleGenAIOptions = {
    vertexai: true,
    project,
    location: options.location,
    apiVersion,
    googleAuthOptions: { authClient: addsNothing as unknown as NonNullable<NonNullable<GoogleGenAIOptions["googleAuthOptions"]>["authClient"]>, scopes: [VERTEX_SCOPE] },
    httpOptions: { apiVersion, ...(options.baseURL ? { baseUrl: options.baseURL } : {}) },
  };
  return { client: new GoogleGenAI(init), target, policy, tokens: serviceAccountTokens(key, target, policy.now) };
}

/** Runs `call` with a fresh bearer token; a token failure is already a ModelError. */
async function withToken<T>(vertex: VertexClient, signal: AbortSignal, call: (authorization: Record<string, string>, fetch: ProbeFetch) => Promise<T>): Promise<T> {
  const token = await vertex.tokens.token(signal);
  return attemptWithProbe(vertex.target, vertex.policy.now, (fetch) => call({ Authorization: `Bearer ${token}` }, fetch));
}

/**
 * Gemini models through Vertex AI (projects/{p}/locations/{l}/publishers/google/models/{m}:generateContent),
 * authenticated with a service-account key. Same thinking, finish-reason and retry rules as
 * the Gemini API adapter.
 *
 * @example
 * const gen = createVertexGenerator({ model: "gemini-2.5-flash", serviceAccount: "/secrets/sa.json", location: "europe-west4", temperature: 0.5 });
 */
export function createVertexGenerator(options: VertexOptions): Generator {
  const vertex = createVertexClient(options, options.provider ?? "vertex");
  const rules = geminiModelRules(options.model);
  const plan = thinkingPlan(rules, options.thinkingBudget ?? DEFAULT_GEMINI_THINKING_BUDGET);
  return geminiFamilyGenerator({
    provider: options.provider ?? "vertex",
    target: vertex.target,
    rules,
    plan,
    policy: vertex.policy,
    options,
    call: (req, config, signal) =>
      withToken(vertex, signal, (headers, fetch) =>
        vertex.client.models.generateContent({ model: options.model, contents: [userContent(req)], config: { ...config, abortSignal: signal, httpOptions: { headers, fetch } } }),
      ),
  });
}

/**
 * Embeddings through Vertex AI, one text per request: gemini-embedding-001 takes one instance
 * per :predict request (https://cloud.google.com/vertex-ai/docs/generative-ai/embeddings/get-text-embeddings),
 * and gemini-embedding-2's :embedContent takes one Content (the SDK refuses more:
 * node/index.mjs `embedContent`). The requests run side by side under the policy's limiter.
 */
export function createVertexEmbedder(options: VertexEmbedderOptions): Embedder {
  const vertex = createVertexClient(options, options.provider ?? "vertex");
  const taskType = options.taskType ?? "SEMANTIC_SIMILARITY";
  const embedOne = async (text: string, signal: AbortSignal | undefined): Promise<number[]> => {
    const response = await vertex.policy.run(
      vertex.target,
      signal,
      (s) =>
        withToken(vertex, s, (headers, fetch) =>
          vertex.client.models.embedContent({ model: options.model, contents: text, config: { taskType, ...(options.dimensions ? { outputDimensionality: options.dimensions } : {}), abortSignal: s, httpOptions: { headers, fetch } } }),
        ),
      unexpected(vertex.target),
    );
    const vectors = (response.embeddings ?? []).map((e) => e.values ?? []);
    if (vectors.length !== 1 || vectors[0]!.length === 0) throw badResponse(vertex.target, `returned ${vectors.length} embeddings for 1 text`);
    return vectors[0]!;
  };
  return {
    provider: options.provider ?? "vertex",
    model: options.model,
    embed: async (texts, signal) => {
      try {
        return await Promise.all(texts.map((t) => embedOne(t, signal)));
      } catch (err) {
        throw isModelError(err) ? err : new ModelError({ ...vertex.target, kind: "bad_response", message: `vertex model ${options.model} failed unexpectedly`, cause: err });
      }
    },
  };
}
