import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsImport from "ajv-formats";
import { parse } from "yaml";

/**
 * Request bodies checked against OpenAI's own OpenAPI document
 * (shared/provider-specs/openai/openapi.yaml beside the repository, openai/openai-openapi f85dbe2), loaded once.
 * The document is OpenAPI 3.1 with OpenAPI 3.0's `nullable` still in places; that keyword is
 * rewritten to JSON Schema's `type: [..., "null"]` before Ajv (2020-12) compiles it.
 */

/** The shared/ folder lies beside the repository's root, in a session's tree and in CI's clone alike. */
export const OPENAI_OPENAPI_PATH = fileURLToPath(new URL("../../../../../../shared/provider-specs/openai/openapi.yaml", import.meta.url));

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** OpenAPI 3.0 `nullable: true` as JSON Schema says it. */
function withoutNullable(node: Json): Json {
  if (Array.isArray(node)) return node.map(withoutNullable);
  if (node === null || typeof node !== "object") return node;
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(node)) out[key] = withoutNullable(value);
  const nullable = out["nullable"];
  delete out["nullable"];
  if (nullable !== true) return out;
  const type = out["type"];
  if (typeof type === "string") {
    out["type"] = [type, "null"];
    const values = out["enum"];
    if (Array.isArray(values)) out["enum"] = [...values, null];
    return out;
  }
  return { anyOf: [out, { type: "null" }] };
}

export interface OpenAPIValidation {
  ok: boolean;
  /** The first error as OpenAI's own messages put it, e.g. "Invalid type for 'temperature'". */
  message: string;
  /** The body property the first error is about, e.g. "temperature" or "messages[1].content". */
  param: string | null;
}

interface Loaded {
  chat: ValidateFunction;
  embedding: ValidateFunction;
  /** Every top-level property CreateChatCompletionRequest names, across its allOf parts. */
  chatProperties: ReadonlySet<string>;
}

let loaded: Loaded | undefined;

type SchemaNode = { [key: string]: unknown };

function collectProperties(schemas: Record<string, SchemaNode>, node: SchemaNode | undefined, into: Set<string>): void {
  if (!node) return;
  const ref = node["$ref"];
  if (typeof ref === "string") collectProperties(schemas, schemas[ref.replace("#/components/schemas/", "")], into);
  const properties = node["properties"];
  if (properties && typeof properties === "object") for (const name of Object.keys(properties)) into.add(name);
  const allOf = node["allOf"];
  if (Array.isArray(allOf)) for (const part of allOf) collectProperties(schemas, part as SchemaNode, into);
}

function load(): Loaded {
  if (loaded) return loaded;
  if (!existsSync(OPENAI_OPENAPI_PATH)) throw new Error(`OpenAI's OpenAPI document is not at ${OPENAI_OPENAPI_PATH}: the strict OpenAI fake checks every request against it (shared/provider-specs/ beside the repository)`);
  const doc = withoutNullable(parse(readFileSync(OPENAI_OPENAPI_PATH, "utf8")) as Json) as { components: { schemas: Record<string, SchemaNode> } };
  // The document is no JSON Schema itself (paths, examples, x- keys): strict mode off, schema not meta-validated.
  const ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: false });
  const addFormats = addFormatsImport as unknown as (ajv: Ajv2020) => void;
  addFormats(ajv);
  ajv.addSchema(doc as object, "openai.yaml");
  const chatProperties = new Set<string>();
  collectProperties(doc.components.schemas, doc.components.schemas["CreateChatCompletionRequest"], chatProperties);
  loaded = {
    chat: ajv.compile({ $ref: "openai.yaml#/components/schemas/CreateChatCompletionRequest" }),
    embedding: ajv.compile({ $ref: "openai.yaml#/components/schemas/CreateEmbeddingRequest" }),
    chatProperties,
  };
  return loaded;
}

/** "/messages/1/content" as OpenAI writes a parameter path: "messages[1].content". */
function paramOf(error: ErrorObject): string | null {
  const parts = error.instancePath.split("/").filter(Boolean);
  if (error.keyword === "additionalProperties") parts.push(String((error.params as { additionalProperty: string }).additionalProperty));
  if (error.keyword === "required") parts.push(String((error.params as { missingProperty: string }).missingProperty));
  if (parts.length === 0) return null;
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), "");
}

function result(validate: ValidateFunction, body: unknown): OpenAPIValidation {
  if (validate(body)) return { ok: true, message: "", param: null };
  const first = validate.errors?.[0];
  if (!first) return { ok: false, message: "Invalid request body.", param: null };
  const param = paramOf(first);
  const message =
    first.keyword === "required" ? `Missing required parameter: '${param}'.` : first.keyword === "additionalProperties" ? `Unrecognized request argument supplied: ${param}` : `Invalid value for '${param ?? "body"}': ${first.message ?? "does not match the schema"}.`;
  return { ok: false, message, param };
}

/**
 * A chat body against CreateChatCompletionRequest. The schema leaves extra top-level
 * properties open, but the API refuses them ("Unrecognized request argument supplied"), so a
 * property the schema does not name is refused here too.
 */
export function validateChatCompletionRequest(body: unknown): OpenAPIValidation {
  const { chat, chatProperties } = load();
  if (body !== null && typeof body === "object" && !Array.isArray(body)) {
    const unknown = Object.keys(body).find((key) => !chatProperties.has(key));
    if (unknown !== undefined) return { ok: false, message: `Unrecognized request argument supplied: ${unknown}`, param: unknown };
  }
  return result(chat, body);
}

/** An embeddings body against CreateEmbeddingRequest (`additionalProperties: false` in the schema). */
export function validateEmbeddingRequest(body: unknown): OpenAPIValidation {
  return result(load().embedding, body);
}
