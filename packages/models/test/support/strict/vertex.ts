import { createVerify, randomBytes, type KeyObject } from "node:crypto";
import { geminiModelRules } from "../../../src/capabilities/gemini.ts";
import type { RecordedRequest, Reply } from "../fake-provider.ts";
import { checkGenerateBody, geminiCacheRules, geminiCall, geminiPromptParts, geminiResponse, googleError } from "./gemini.ts";
import { createPromptCacheBook } from "./prompt-cache-book.ts";
import { hashEmbedding, header, startStrictServer, type Check, type PromptCaching, type ReportedModelOptions, type StrictFake, type StrictFakeOptions } from "./strict-fake.ts";

/**
 * A strict Vertex AI on 127.0.0.1: Google's OAuth token endpoint for service accounts and the
 * Gemini methods of aiplatform.googleapis.com. Rules and sources:
 * - TOKEN: https://developers.google.com/identity/protocols/oauth2/service-account#httprest
 *   (POST grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer and an RS256-signed assertion
 *   with iss = the account's email, scope, aud = the token URI, iat, exp at most an hour later;
 *   errors are {error: "invalid_grant", error_description}).
 * - PATHS: https://cloud.google.com/vertex-ai/docs/reference/rest/v1/projects.locations.publishers.models
 *   (generateContent, predict, embedContent under projects/{p}/locations/{l}/publishers/google/models/{m}),
 *   called with "Authorization: Bearer" (401 UNAUTHENTICATED without a valid token).
 * - BODY: the same GenerateContentRequest as the Gemini API (strict/gemini.ts).
 * - EMBED: gemini-embedding-001 takes one instance per :predict request
 *   (https://cloud.google.com/vertex-ai/docs/generative-ai/embeddings/get-text-embeddings);
 *   gemini-embedding-2 is served by :embedContent with one Content (SDK node/index.mjs embedContent).
 */
export interface StrictVertexOptions extends StrictFakeOptions, ReportedModelOptions {
  /** The service account's public key: assertions must verify against it. */
  publicKey: KeyObject | string;
  clientEmail: string;
  project: string;
  location: string;
}

export interface StrictVertex extends StrictFake, PromptCaching {
  /** The token URI to put in the test key (`${url}/token`). */
  tokenUri: string;
  /** Access tokens issued so far. */
  issued: string[];
}

type Refusal = NonNullable<ReturnType<Check>>;
const SCOPE = "https://www.googleapis.com/auth/cloud-platform";
const oauthError = (description: string, rule: string): Refusal => ({ status: 400, body: { error: "invalid_grant", error_description: description }, rule });
const refuse = (status: string, code: number, message: string, rule: string): Refusal => ({ status: code, body: googleError(status, message), rule });

const PATH = /^\/(v1|v1beta1)\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/google\/models\/([^/:]+):([A-Za-z]+)$/;

export async function startStrictVertex(options: StrictVertexOptions): Promise<StrictVertex> {
  const issued: string[] = [];
  const promptCache = createPromptCacheBook();
  const delay = options.answerDelayMs ?? 0;
  const tokenExpiry = new Map<string, number>();
  let tokenUri = "";

  const checkToken = (req: RecordedRequest): Refusal | null => {
    if (header(req.headers, "content-type")?.startsWith("application/x-www-form-urlencoded") !== true) return { status: 400, body: { error: "invalid_request", error_description: "form body expected" }, rule: "the token request is a form post (TOKEN)" };
    const form = new URLSearchParams(typeof req.body === "string" ? req.body : "");
    if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") return { status: 400, body: { error: "unsupported_grant_type", error_description: "Invalid grant_type" }, rule: "grant_type must be jwt-bearer (TOKEN)" };
    const parts = (form.get("assertion") ?? "").split(".");
    if (parts.length !== 3) return oauthError("Invalid JWT: Token must be a short-lived token and in a reasonable timeframe", "the assertion must be a JWS (TOKEN)");
    const [head, claims, signature] = parts as [string, string, string];
    let h: { alg?: string };
    let c: { iss?: string; aud?: string; scope?: string; iat?: number; exp?: number };
    try {
      h = JSON.parse(Buffer.from(head, "base64url").toString("utf8"));
      c = JSON.parse(Buffer.from(claims, "base64url").toString("utf8"));
    } catch {
      return oauthError("Invalid JWT", "the assertion must be base64url JSON (TOKEN)");
    }
    if (h.alg !== "RS256") return oauthError("Invalid JWT signature algorithm", "alg must be RS256 (TOKEN)");
    const valid = createVerify("RSA-SHA256").update(`${head}.${claims}`).verify(options.publicKey, Buffer.from(signature, "base64url"));
    if (!valid) return oauthError("Invalid JWT Signature.", "the assertion must be signed by the service account's key (TOKEN)");
    if (c.iss !== options.clientEmail) return oauthError("Invalid issuer", "iss must be the service account's email (TOKEN)");
    if (c.aud !== tokenUri) return oauthError("Invalid JWT: audience", `aud must be the token URI ${tokenUri} (TOKEN)`);
    if (!c.scope?.split(" ").includes(SCOPE)) return oauthError("Invalid scope", "scope must include cloud-platform (TOKEN)");
    const now = Math.floor(Date.now() / 1000);
    if (typeof c.iat !== "number" || typeof c.exp !== "number" || c.exp <= now || c.exp - c.iat > 3600 || c.iat > now + 300) return oauthError("Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.", "exp must be in the future and at most an hour after iat (TOKEN)");
    return null;
  };

  const check: Check = (req) => {
    const url = new URL(req.path, "http://127.0.0.1");
    if (url.pathname === "/token" && req.method === "POST") return checkToken(req);
    const match = PATH.exec(url.pathname);
    if (req.method !== "POST" || !match) return refuse("NOT_FOUND", 404, `The requested URL ${url.pathname} was not found on this server.`, "no such Vertex method (PATHS)");
    const authorization = header(req.headers, "authorization") ?? "";
    const token = authorization.startsWith("Bearer ") ? authorization.slice("Bearer ".length) : "";
    if (!tokenExpiry.has(token) || tokenExpiry.get(token)! < Date.now()) {
      return refuse("UNAUTHENTICATED", 401, "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.", "a valid bearer token from the token endpoint is required (PATHS)");
    }
    const [, , project, location, model, method] = match as unknown as [string, string, string, string, string, string];
    if (project !== options.project) return refuse("PERMISSION_DENIED", 403, `Permission denied on resource project ${project}.`, "the project must be the service account's (PATHS)");
    if (location !== options.location) return refuse("NOT_FOUND", 404, `Publisher Model projects/${project}/locations/${location}/publishers/google/models/${model} was not found.`, "the model is not offered in that location (PATHS)");
    const rules = geminiModelRules(model);
    if (!rules.known) return refuse("NOT_FOUND", 404, `Publisher Model publishers/google/models/${model} was not found or your project does not have access to it.`, `unknown model ${model} (PATHS)`);
    if (method === "generateContent" && rules.kind === "generator") return checkGenerateBody(req.body, rules);
    const body = req.body as Record<string, unknown>;
    if (method === "predict" && rules.embedding?.vertexMethod === "predict") {
      const instances = body?.instances;
      if (!Array.isArray(instances) || instances.length !== 1) return refuse("INVALID_ARGUMENT", 400, "Only one instance is allowed per request for this model.", `${model} takes exactly one instance per request (EMBED)`);
      const instance = instances[0] as Record<string, unknown>;
      if (typeof instance?.content !== "string" || Object.keys(instance).some((k) => !["content", "task_type", "title"].includes(k))) return refuse("INVALID_ARGUMENT", 400, "Invalid instance.", "an instance is {content, task_type?, title?} (EMBED)");
      return null;
    }
    if (method === "embedContent" && rules.embedding?.vertexMethod === "embedContent") {
      if (Object.keys(body ?? {}).some((k) => !["content", "embedContentConfig"].includes(k))) return refuse("INVALID_ARGUMENT", 400, "Invalid JSON payload received.", "embedContent takes content and embedContentConfig (EMBED)");
      const content = body.content as { parts?: unknown[] } | undefined;
      if (!Array.isArray(content?.parts) || content.parts.length === 0) return refuse("INVALID_ARGUMENT", 400, "content.parts must not be empty.", "embedContent needs one Content (EMBED)");
      return null;
    }
    return refuse("INVALID_ARGUMENT", 400, `${model} does not support ${method}.`, `${model} is not served by :${method} (PATHS, EMBED)`);
  };

  const respond = options.respond ?? (() => "I would probably buy it.");
  const reported = options.reportedModel ?? ((requested: string) => requested);
  const embed = options.embed ?? ((text: string, model: string) => hashEmbedding(`${model}:${text}`, geminiModelRules(model).embedding?.dimensions ?? 768));
  const answer = (req: RecordedRequest): Reply => {
    if (req.path.startsWith("/token")) {
      const token = `ya29.fake-${randomBytes(12).toString("hex")}`;
      issued.push(token);
      tokenExpiry.set(token, Date.now() + 3599_000);
      return { status: 200, body: { access_token: token, expires_in: 3599, token_type: "Bearer" } };
    }
    const [, , , , model, method] = PATH.exec(new URL(req.path, "http://127.0.0.1").pathname) as unknown as [string, string, string, string, string, string];
    const body = req.body as Record<string, unknown>;
    if (method === "generateContent") {
      // Vertex AI caches Gemini 2.5+ prompts implicitly, as the Gemini API does; a cache belongs to a project.
      const rules = geminiCacheRules(model);
      const prompt = rules ? promptCache.account(`${options.project}\u0000${model}`, model, geminiPromptParts(body), rules, delay) : undefined;
      return { status: 200, body: geminiResponse(reported(model), respond(geminiCall(model, body)), "STOP", undefined, prompt), ...(delay > 0 ? { delayMs: delay } : {}) };
    }
    if (method === "predict") {
      const instance = (body.instances as Array<{ content: string }>)[0]!;
      return { status: 200, body: { predictions: [{ embeddings: { values: embed(instance.content, model), statistics: { token_count: 5, truncated: false } } }] } };
    }
    const text = ((body.content as { parts: Array<{ text?: string }> }).parts.map((p) => p.text ?? "")).join("\n");
    return { status: 200, body: { embedding: { values: embed(text, model) } } };
  };

  const fake = await startStrictServer(check, answer, options);
  tokenUri = `${fake.url}/token`;
  return { ...fake, tokenUri, issued, promptCache };
}
