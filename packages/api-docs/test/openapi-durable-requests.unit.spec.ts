import { describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import {
  ErrorResponse,
  IDEMPOTENCY_KEY_HEADER,
  idempotencyKeyProblem,
  PairwiseRequest,
  PairwiseResponse,
  parseWith,
  RankAudiencesRequest,
  RankAudiencesResponse,
  RankRequest,
  RankResponse,
  RequestStatus,
} from "@adrank/contracts";
import { buildOpenApiDocument } from "../src/index.ts";

// What the document says about durable requests (issue 18): the Idempotency-Key header, the
// 202 of `async: true`, the 409 of a key whose request still runs, the 422s of keys and
// webhooks, Idempotent-Replayed, and GET /api/v1/requests/{request_id}.

type Example = { summary: string; value: unknown };
type Media = { schema: Record<string, unknown>; examples: Record<string, Example> };
type Response = { description: string; headers?: Record<string, { $ref: string }>; content?: Record<string, Media> };
type Parameter = { name: string; in: string; required?: boolean; description?: string; schema: { type: string; format?: string; minLength?: number; maxLength?: number; pattern?: string }; example?: unknown };
type Operation = { operationId: string; tags: string[]; parameters?: Array<Parameter | { $ref: string }>; requestBody?: { content: Record<string, Media> }; responses: Record<string, Response> };
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: { parameters: Record<string, Parameter>; headers: Record<string, { description: string; schema: unknown }>; schemas: Record<string, unknown> };
  info: { description: string };
};

const doc = buildOpenApiDocument() as unknown as Doc;
const rank = doc.paths["/api/v1/rank"]!.post!;
const pairwise = doc.paths["/api/v1/pairwise"]!.post!;
const rankAudiences = doc.paths["/api/v1/rank/audiences"]!.post!;
const getRequest = doc.paths["/api/v1/requests/{request_id}"]?.get;
/** Every durable POST, by the `operation` its RequestStatus names. */
const posts = [
  ["rank", rank],
  ["pairwise", pairwise],
  ["rank_audiences", rankAudiences],
] as const;

/** The work an accepted request's progress counts: assets, pairs, or each asset once per audience. */
function expectedProgress(name: (typeof posts)[number][0], body: unknown) {
  if (name === "rank") return { total: RankRequest.parse(body).assets.length, unit: "assets" };
  if (name === "pairwise") return { total: PairwiseRequest.parse(body).pairs.length, unit: "pairs" };
  const parsed = RankAudiencesRequest.parse(body);
  return { total: parsed.assets.length * parsed.audiences.length, unit: "assets" };
}

const json = (response: Response | undefined) => response!.content!["application/json"]!;
const examples = (response: Response | undefined) => Object.entries(json(response).examples).map(([key, e]) => ({ key, ...e }));
const resolve = (p: Parameter | { $ref: string }): Parameter => ("$ref" in p ? doc.components.parameters[p.$ref.replace("#/components/parameters/", "")]! : p);

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ $id: "doc", components: doc.components }, "doc");

describe("Idempotency-Key", () => {
  const parameters = posts.map(([name, op]) => [name, (op.parameters ?? []).map(resolve).find((p) => p.name === IDEMPOTENCY_KEY_HEADER)] as const);

  it("is an optional header of every durable POST, described with its rules", () => {
    for (const [name, p] of parameters) {
      expect(p, name).toBeDefined();
      expect(p).toMatchObject({ in: "header", required: false, schema: { type: "string", minLength: 1, maxLength: 255 } });
      for (const rule of ["24 hours", "Idempotent-Replayed: true", "409", "422", "billed"]) expect(p!.description, rule).toContain(rule);
    }
  });

  it("documents a pattern that agrees with the rule the gateway applies", () => {
    const schema = ajv.compile(parameters[0]![1]!.schema);
    const keys = ["5b0f3a3e-2d4c-4f7e-9c61-8f1d2a7b6e90", "order-42", "!~", "", "order 42", "tab\there", "line\nbreak", "ümlaut", "🔑", "k".repeat(255), "k".repeat(256)];
    for (const key of keys) expect(schema(key), JSON.stringify(key)).toBe(idempotencyKeyProblem(key) === null);
    // A documented example would be sent by the docs page's Test request on every try, and a
    // second try with another body would get a 422.
    expect(parameters[0]![1]).not.toHaveProperty("example");
  });

  it("shows the 422 of a malformed key and of a key reused with another body, on every durable POST", () => {
    for (const [name, op] of posts) {
      const refusals = json(op.responses["422"]).examples;
      expect(refusals.badIdempotencyKey?.value, name).toEqual({ error: `Idempotency-Key ${idempotencyKeyProblem("order 2025-09-14 #1")}.`, field: "Idempotency-Key" });
      expect(refusals.idempotencyKeyReused?.value, name).toMatchObject({ field: "Idempotency-Key" });
      expect((refusals.idempotencyKeyReused!.value as { error: string }).error).toMatch(/Idempotency-Key was already used .*different request body.*\.$/);
    }
  });

  it("marks a replayed 200 and 202 with Idempotent-Replayed", () => {
    for (const [name, op] of posts) {
      for (const status of ["200", "202"]) expect(Object.keys(op.responses[status]!.headers!), `${name} ${status}`).toContain("Idempotent-Replayed");
    }
    expect(doc.components.headers["Idempotent-Replayed"]).toMatchObject({ schema: { type: "string", enum: ["true"] } });
  });

  it("answers 409 with the running request's id and Retry-After while the first request runs", () => {
    for (const [name, op] of posts) {
      const conflict = op.responses["409"];
      expect(conflict, name).toBeDefined();
      expect(json(conflict).schema).toEqual({ $ref: "#/components/schemas/ErrorResponse" });
      expect(Object.keys(conflict!.headers!)).toEqual(expect.arrayContaining(["X-Request-Id", "Retry-After"]));
      for (const e of examples(conflict)) {
        expect(ErrorResponse.parse(e.value).request_id, e.key).toMatch(/^[0-9a-f-]{36}$/);
      }
    }
  });
});

describe("async: true", () => {
  it("answers 202 with a RequestStatus, Location and Retry-After", () => {
    for (const [name, op] of posts) {
      const response = op.responses["202"];
      expect(response, name).toBeDefined();
      expect(json(response).schema).toEqual({ $ref: "#/components/schemas/RequestStatus" });
      expect(Object.keys(response!.headers!)).toEqual(expect.arrayContaining(["X-Request-Id", "Location", "Retry-After"]));
    }
    expect(doc.components.headers.Location).toBeDefined();
  });

  it("shows each 202 as the answer to the operation's asynchronous request example", () => {
    for (const [name, op] of posts) {
      const request = Object.values(op.requestBody!.content["application/json"]!.examples).map((e) => e.value as Record<string, unknown>).find((v) => v.async === true);
      expect(request, `${name} has an async request example`).toBeDefined();
      const webhookUrl = (request as { webhook_url?: string }).webhook_url;
      for (const e of examples(op.responses["202"])) {
        const status = RequestStatus.parse(e.value);
        expect(status).toMatchObject({ object: "request", operation: name, status: "running", finished_at: null, error: null, result_url: `/api/v1/requests/${status.request_id}` });
        expect(status.progress).toEqual({ done: 0, ...expectedProgress(name, request) });
        expect(status.webhook).toEqual(webhookUrl === undefined ? null : { url: webhookUrl, state: "pending", attempts: 0 });
      }
    }
  });

  it("shows the 422 of webhook_url without async: true, as the schema words it", () => {
    for (const [name, op] of posts) {
      const example = json(op.responses["422"]).examples.webhookWithoutAsync;
      expect(example, name).toBeDefined();
      expect(example!.value).toEqual({ error: 'webhook_url needs "async": true; a synchronous request answers with its result instead.', field: "webhook_url" });
    }
    const direct = parseWith(RankRequest, { assets: [{ url: "https://cdn.example.com/a.png" }], audience_id: "a", webhook_url: "https://hooks.example.com/x" });
    expect(!direct.ok && direct.error.body).toEqual(json(rank.responses["422"]).examples.webhookWithoutAsync!.value);
  });

  it("documents async and webhook_url as optional request fields", () => {
    for (const name of ["RankRequest", "PairwiseRequest", "RankAudiencesRequest"]) {
      const schema = doc.components.schemas[name] as { properties: Record<string, { type?: string; default?: unknown; description?: string }>; required: string[] };
      expect(schema.properties.async, name).toMatchObject({ type: "boolean", default: false });
      expect(schema.properties.webhook_url, name).toMatchObject({ type: "string" });
      expect(schema.properties.webhook_url!.description).toContain("https");
      expect(schema.required).not.toContain("async");
      expect(schema.required).not.toContain("webhook_url");
    }
  });
});

describe("GET /api/v1/requests/{request_id} (getRequest)", () => {
  it("exists under the Requests tag with a uuid path parameter", () => {
    expect(getRequest).toBeDefined();
    expect(getRequest!.operationId).toBe("getRequest");
    expect(getRequest!.tags).toEqual(["Requests"]);
    expect(getRequest!.parameters!.map(resolve)).toEqual([expect.objectContaining({ name: "request_id", in: "path", required: true, schema: { type: "string", format: "uuid" } })]);
    expect(Object.keys(getRequest!.responses).sort()).toEqual(["200", "202", "401", "404", "500"]);
  });

  it("answers 200 with one of a rank result, a pairwise result, a result for several audiences or a failed request's status", () => {
    const ok = getRequest!.responses["200"];
    const results = ["RankResponse", "PairwiseResponse", "RankAudiencesResponse", "RequestStatus"];
    expect(json(ok).schema).toEqual({ oneOf: results.map((id) => ({ $ref: `#/components/schemas/${id}` })) });
    const kinds = examples(ok).map((e) => {
      if (RankResponse.safeParse(e.value).success) return "rank";
      if (PairwiseResponse.safeParse(e.value).success) return "pairwise";
      if (RankAudiencesResponse.safeParse(e.value).success) return "rank_audiences";
      return `status ${RequestStatus.parse(e.value).status}`;
    });
    expect(kinds.sort()).toEqual(["pairwise", "rank", "rank_audiences", "status failed"]);
    const failed = examples(ok).map((e) => RequestStatus.safeParse(e.value)).find((r) => r.success)!.data!;
    expect(failed.error).toBeTruthy();
    expect(failed.finished_at).not.toBeNull();
    // The document's oneOf holds each example to exactly one of its schemas.
    const oneOf = ajv.compile({ oneOf: results.map((id) => ({ $ref: `doc#/components/schemas/${id}` })) });
    for (const e of examples(ok)) expect(oneOf(e.value), `${e.key}: ${JSON.stringify(oneOf.errors)}`).toBe(true);
  });

  it("answers 202 with a running status and Retry-After, for the request the examples follow", () => {
    const running = getRequest!.responses["202"];
    expect(json(running).schema).toEqual({ $ref: "#/components/schemas/RequestStatus" });
    expect(Object.keys(running!.headers!)).toEqual(expect.arrayContaining(["X-Request-Id", "Retry-After"]));
    const id = getRequest!.parameters!.map(resolve)[0]!.example;
    for (const e of examples(running)) {
      const status = RequestStatus.parse(e.value);
      expect(status.status).toBe("running");
      expect(status.request_id).toBe(id);
      expect(status.progress.done).toBeLessThan(status.progress.total);
    }
    // The same request, finished: the rank result under its id; and its 202 from POST.
    const rankResult = examples(getRequest!.responses["200"]).find((e) => RankResponse.safeParse(e.value).success)!.value as { request_id: string };
    expect(rankResult.request_id).toBe(id);
    expect(examples(rank.responses["202"]).map((e) => (e.value as { request_id: string }).request_id)).toContain(id);
  });

  it("answers 404 with an error body for unknown ids and other accounts' requests", () => {
    const notFound = getRequest!.responses["404"];
    expect(json(notFound).schema).toEqual({ $ref: "#/components/schemas/ErrorResponse" });
    expect(notFound!.description).toMatch(/malformed/);
    expect(notFound!.description).toMatch(/another account/);
    for (const e of examples(notFound)) expect(ErrorResponse.parse(e.value)).toEqual({ error: expect.stringMatching(/\.$/) });
  });

  it("gives curl, SDK and CLI samples that start an asynchronous request and fetch it", () => {
    const samples = (getRequest as unknown as { "x-codeSamples": Array<{ label: string; source: string }> })["x-codeSamples"];
    const source = (label: string) => samples.find((s) => s.label === label)!.source;
    expect(source("curl")).toBe('curl "$ADRANK_BASE_URL/api/v1/requests/$REQUEST_ID" \\\n  -H "Authorization: Bearer $ADRANK_API_KEY"');
    expect(source("TypeScript SDK")).toMatch(/adrank\.rankAsync\([\s\S]*adrank\.getRequest\(accepted\.request_id\)[\s\S]*adrank\.waitForResult\(accepted\.request_id\)/);
    const cli = source("CLI");
    expect(cli).toMatch(/request_id=\$\(adrank rank sunrise-run\.png studio-shoe\.png \\\n[\s\S]*\\\n {2}--async\)\n/);
    expect(cli.trimEnd().endsWith('adrank get "$request_id" --wait')).toBe(true);
  });
});

describe("the guide", () => {
  const guide = doc.info.description;
  const section = (heading: string) => {
    const start = guide.indexOf(`## ${heading}\n`);
    expect(start, heading).toBeGreaterThanOrEqual(0);
    const next = guide.indexOf("\n## ", start + 1);
    return guide.slice(start, next === -1 ? undefined : next);
  };

  it("explains retries with an Idempotency-Key", () => {
    const text = section("Retries and idempotency");
    for (const fact of ["Idempotency-Key", "24 hours", "Idempotent-Replayed: true", "409", "Retry-After: 5", "422", "same `request_id`", "a retry with the same key runs it as new"]) expect(text, fact).toContain(fact);
  });

  it("explains asynchronous requests and fetching results for 30 days", () => {
    expect(section("Asynchronous requests")).toMatch(/202 Accepted[\s\S]*Location[\s\S]*Retry-After: 2/);
    expect(section("Fetching results again")).toContain("30 days");
  });

  it("explains webhooks: the signature, how to verify it, the retries and the secret", () => {
    const text = section("Webhooks");
    for (const fact of ["Adrank-Signature", "t=<unix seconds>,v1=<hex>", "HMAC-SHA256", "`<t>.<body>`", "constant time", "verifyWebhookSignature", "Adrank-Delivery-Id", "Adrank-Event", "request.succeeded", "request.failed", "User-Agent", "adrank-webhooks/1"]) {
      expect(text, fact).toContain(fact);
    }
    for (const fact of ["`2xx` answer means delivered", "redirects are not followed", "10 seconds", "one hour", "at least 24 hours", "shown once", "24 hours after a rotation"]) expect(text, fact).toContain(fact);
  });

  it("lists 409 among the errors", () => {
    expect(section("Errors")).toMatch(/\| `409` \| .*Idempotency-Key/);
  });
});
