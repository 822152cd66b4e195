import type { RecordedRequest, Reply } from "../fake-provider.ts";
import { checkOpenAIChatRules, checkOpenAIEmbeddingRules, checkOpenAISchema, fakeEmbeddingModel, modelCallOf, openaiChatCompletion, openaiEmbeddingList } from "./openai.ts";
import { hashEmbedding, header, startStrictServer, type Check, type ReportedModelOptions, type StrictFake, type StrictFakeOptions } from "./strict-fake.ts";

/**
 * A strict fake of Azure OpenAI's data-plane API at `<url>` = http://127.0.0.1:<port> (the
 * resource endpoint an operator configures). Sources: learn.microsoft.com/azure/ai-foundry/openai/reference
 * (paths /openai/deployments/{deployment-id}/chat/completions and /embeddings, the required
 * `api-version` query, the `api-key` header) and .../openai/api-version-lifecycle.
 *
 * Checked first, in Azure's order: the key (401 with Azure's `{error: {code: "401", message}}`),
 * the route and api-version (404 "Resource not found" / 400 unsupported version), the deployment
 * (404 DeploymentNotFound), then the body against OpenAI's OpenAPI document and the rules of the
 * model the deployment serves (Azure forwards OpenAI's own 400 bodies for those).
 */

/** Dated versions the fake serves; reasoning_effort needs 2024-12-01-preview or later (Azure reasoning-models guide). */
export const AZURE_FAKE_API_VERSIONS = ["2024-10-21", "2024-12-01-preview", "2025-01-01-preview", "2025-03-01-preview", "2025-04-01-preview"] as const;
const FIRST_WITH_REASONING = "2024-12-01-preview";

export interface StrictAzureOptions extends StrictFakeOptions, ReportedModelOptions {
  /** Deployment name → the model it serves, e.g. { ranker: "gpt-4.1" }. */
  deployments: Record<string, string>;
}

const azureError = (status: number, code: string, message: string, rule: string) => ({ status, body: { error: { code, message } }, rule });

const ROUTE = /^\/openai\/deployments\/([^/]+)\/(chat\/completions|embeddings)$/;

export function azureCheck(apiKey: string, deployments: Record<string, string>): Check {
  return (req: RecordedRequest) => {
    const url = new URL(req.path, "http://fake");
    const key = header(req.headers, "api-key");
    if (key !== apiKey) {
      return azureError(401, "401", "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.", key ? "wrong api-key" : "no api-key header (Azure does not read a Bearer key as an API key)");
    }
    const route = req.method === "POST" ? ROUTE.exec(url.pathname) : null;
    const version = url.searchParams.get("api-version");
    if (!route || !version) return azureError(404, "404", "Resource not found", !route ? `no such route ${req.method} ${url.pathname}` : "no api-version query");
    if (!(AZURE_FAKE_API_VERSIONS as readonly string[]).includes(version)) return azureError(400, "BadRequest", "API version not supported", `api-version ${version} is not served`);
    const deployment = decodeURIComponent(route[1]!);
    const model = deployments[deployment];
    if (!model) return azureError(404, "DeploymentNotFound", "The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.", `no deployment ${deployment}`);
    const kind = route[2] === "embeddings" ? "embedding" : "chat";
    const schema = checkOpenAISchema(kind, req.body);
    if (schema) return schema;
    const body = req.body as { reasoning_effort?: unknown };
    if (kind === "chat" && body.reasoning_effort != null && version < FIRST_WITH_REASONING) {
      return { status: 400, body: { error: { message: "Unrecognized request argument supplied: reasoning_effort", type: "invalid_request_error", param: null, code: null } }, rule: `reasoning_effort needs api-version ${FIRST_WITH_REASONING} or later` };
    }
    return kind === "chat" ? checkOpenAIChatRules(req.body as object, model) : checkOpenAIEmbeddingRules(req.body as object, model);
  };
}

/** Azure's 429: `retry-after` and its own error body. */
export function azureRateLimited(seconds = 2): Reply {
  return { status: 429, headers: { "retry-after": String(seconds), "retry-after-ms": String(seconds * 1000) }, body: { error: { code: "429", message: `Requests to the ChatCompletions_Create Operation have exceeded the token rate limit. Please retry after ${seconds} seconds.` } } };
}

/** Azure's content filter refusing a prompt (learn.microsoft.com/azure/ai-foundry/openai/concepts/content-filter). */
export function azureContentFiltered(): Reply {
  return {
    status: 400,
    body: { error: { message: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.", type: null, param: "prompt", code: "content_filter", status: 400, innererror: { code: "ResponsibleAIPolicyViolation", content_filter_result: { violence: { filtered: true, severity: "medium" } } } } },
  };
}

export const AZURE_FAKE_KEY = "azure-strict-key-0123";

/** Starts the strict Azure fake; configure the adapter with `url` as the resource endpoint. */
export async function startStrictAzure(options: StrictAzureOptions): Promise<StrictFake> {
  const apiKey = options.apiKey ?? AZURE_FAKE_KEY;
  const respond = options.respond ?? (() => "I would probably buy it.");
  const reported = options.reportedModel ?? ((requested: string) => requested);
  return startStrictServer(
    azureCheck(apiKey, options.deployments),
    (req) => {
      const route = ROUTE.exec(new URL(req.path, "http://fake").pathname)!;
      const deployment = decodeURIComponent(route[1]!);
      const model = options.deployments[deployment]!;
      if (route[2] === "embeddings") {
        const body = req.body as { input: string | string[]; dimensions?: number };
        const texts = Array.isArray(body.input) ? body.input : [body.input];
        const dimensions = body.dimensions ?? fakeEmbeddingModel(model)!.dimensions;
        return { status: 200, body: openaiEmbeddingList(texts.map((t) => options.embed?.(t, model) ?? hashEmbedding(t, dimensions)), model) };
      }
      // Azure names the model the deployment serves, not the deployment (its `model` is the snapshot, e.g. gpt-4o-2024-08-06).
      return { status: 200, body: openaiChatCompletion(respond(modelCallOf(req.body, deployment)), reported(model)) };
    },
    options.reply ? { reply: options.reply } : {},
  );
}
