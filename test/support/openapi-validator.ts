import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { ErrorObject, ValidateFunction } from "ajv";

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

const DOC_ID = "https://adrank.invalid/openapi.json";

interface OpenApiDocument {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
  components?: Record<string, unknown>;
}

/**
 * Checks response bodies against the OpenAPI document the gateway serves, with ajv's
 * JSON Schema 2020-12 (the dialect of OpenAPI 3.1). The document's `$ref`s resolve inside
 * it. Which schema applies is found by operation id and status, as a client generator would.
 */
export function responseValidator(doc: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, paths: doc.paths, components: doc.components ?? {} });
  const compiled = new Map<string, ValidateFunction>();

  const locate = (operationId: string, status: number): string => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (op?.operationId !== operationId) continue;
        const responses = op.responses ?? {};
        const code = String(status) in responses ? String(status) : `${String(status)[0]}XX` in responses ? `${String(status)[0]}XX` : "default";
        const content = responses[code]?.content;
        if (!content) throw new Error(`${operationId} documents no body for status ${status}`);
        const type = Object.keys(content).find((t) => t.includes("json"));
        if (!type) throw new Error(`${operationId} documents no JSON body for status ${status}`);
        const pointer = ["paths", path, method, "responses", code, "content", type, "schema"].map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
        return `${DOC_ID}#/${pointer}`;
      }
    }
    throw new Error(`no operation ${operationId} in the document`);
  };

  return {
    /** Null when the body conforms; otherwise ajv's errors as readable lines. */
    check(operationId: string, status: number, body: unknown): string | null {
      const ref = locate(operationId, status);
      let validate = compiled.get(ref);
      if (!validate) {
        validate = ajv.compile({ $ref: ref });
        compiled.set(ref, validate);
      }
      return validate(body) ? null : describe(validate.errors ?? []);
    },
  };
}

function describe(errors: ErrorObject[]): string {
  return errors.map((e) => `${e.instancePath || "(body)"} ${e.message ?? ""} ${JSON.stringify(e.params)}`).join("\n");
}
