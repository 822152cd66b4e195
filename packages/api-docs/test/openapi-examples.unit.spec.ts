import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { stripTypeScriptTypes } from "node:module";
import type { z } from "zod";
import { compileErrors, validate } from "@readme/openapi-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import {
  AudienceList,
  CalibrationResponse,
  CreateAudienceRequest,
  ErrorResponse,
  PairwiseRequest,
  PairwiseResponse,
  RankAudiencesRequest,
  RankAudiencesResponse,
  RankRequest,
  RankResponse,
  RateLimitedResponse,
  RecordOutcomesRequest,
  RecordOutcomesResponse,
  RequestStatus,
  SavedAudience,
} from "@adrank/contracts";
import { buildOpenApiDocument } from "../src/index.ts";

// The docs page teaches by example: every example must be a body the service accepts (or
// sends), and every code sample must send the example it sits next to.

type Example = { summary: string; value: unknown };
type Media = { schema: { $ref: string } | { oneOf: Array<{ $ref: string }> }; examples?: Record<string, Example> };
type Sample = { lang: string; label: string; source: string };
type Operation = {
  operationId: string;
  tags?: string[];
  summary?: string;
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
  "x-codeSamples"?: Sample[];
};
type Doc = { tags: Array<{ name: string; description: string }>; info: { description: string }; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

const doc = buildOpenApiDocument() as unknown as Doc;
const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));
const refName = (ref: { $ref: string }) => ref.$ref.replace("#/components/schemas/", "");
/** The component a body is, or each one it may be (a oneOf). */
const schemaNames = (media: Media) => ("oneOf" in media.schema ? media.schema.oneOf.map(refName) : [refName(media.schema)]);
const schemaName = (media: Media) => {
  const [name, ...more] = schemaNames(media);
  if (more.length > 0) throw new Error(`a request body is one schema, not ${schemaNames(media).join(" | ")}`);
  return name!;
};
const firstExample = (media: Media) => Object.values(media.examples ?? {})[0]!.value;

const requestSchemas: Record<string, z.ZodType> = { RankRequest, RankAudiencesRequest, PairwiseRequest, CreateAudienceRequest, RecordOutcomesRequest };
const responseSchemas: Record<string, z.ZodType> = { RankResponse, RankAudiencesResponse, PairwiseResponse, AudienceList, SavedAudience, ErrorResponse, RateLimitedResponse, RequestStatus, RecordOutcomesResponse, CalibrationResponse };

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ $id: "doc", components: doc.components }, "doc");

/** The document's own JSON Schema for a component, as a generated client would check it. */
function documentSchema(name: string) {
  const check = ajv.getSchema(`doc#/components/schemas/${name}`) ?? ajv.compile({ $ref: `doc#/components/schemas/${name}` });
  return (value: unknown) => (check(value) ? "" : JSON.stringify(check.errors));
}

/** The schema a media type declares, oneOf included, resolved in the document. */
function mediaSchema(media: Media) {
  const resolve = (r: { $ref: string }) => ({ $ref: `doc${r.$ref}` });
  const check = ajv.compile("oneOf" in media.schema ? { oneOf: media.schema.oneOf.map(resolve) } : resolve(media.schema));
  return (value: unknown) => (check(value) ? "" : JSON.stringify(check.errors));
}

/** The path a curl sample requests: a path parameter is read from the shell variable of its name in capitals. */
const samplePath = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => `$${name.toUpperCase()}`);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// A stand-in for curl that prints the URL it was given and the body it would send, from
// --data-raw or from stdin (--data-binary @-, a here-document).
const FAKE_CURL = `curl() {
  local url="" body=""
  while [ $# -gt 0 ]; do
    case "$1" in
      -X|-H) shift 2 ;;
      --data-raw) body="$2"; shift 2 ;;
      --data-binary) if [ "$2" = "@-" ]; then body="$(cat)"; else body="$2"; fi; shift 2 ;;
      *) url="$1"; shift ;;
    esac
  done
  printf '%s\\n%s' "$url" "$body"
}`;

/** What a curl sample sends when bash runs it as a reader would paste it (-euo pipefail), with `env` set. */
function curlSends(source: string, env: Record<string, string>): { url: string; body: string } {
  const out = execFileSync("bash", ["-euo", "pipefail", "-c", `${FAKE_CURL}\n${source}`], { env: { PATH: process.env.PATH ?? "", ...env }, encoding: "utf8" });
  const newline = out.indexOf("\n");
  return { url: out.slice(0, newline), body: out.slice(newline + 1) };
}

/** The request_id a body names, if any: the reader's own request, in $REQUEST_ID. */
const requestIdIn = (body: unknown) => /"request_id":"([^"]+)"/.exec(JSON.stringify(body ?? null))?.[1];

/** The sample's Idempotency-Key, as the evaluated arguments see it (the sample makes a new one with randomUUID). */
const SAMPLE_IDEMPOTENCY_KEY = "sample-idempotency-key";

/** The arguments an SDK sample passes, evaluated with the image files read as the examples' data URIs. */
async function sdkArguments(source: string, method: string, imageFiles: Map<string, string>, env: Record<string, string | undefined> = {}): Promise<unknown[]> {
  const start = source.indexOf(`${method}(`) + method.length + 1;
  const end = source.indexOf(");\n", start);
  // TypeScript (a `!` after process.env.X) as the JavaScript Node runs.
  const literal = stripTypeScriptTypes(`[${source.slice(start, end)}]`);
  const readImage = async (file: string) => imageFiles.get(file) ?? `unknown file ${file}`;
  return new Function("imageFileToDataUri", "process", "idempotencyKey", `return (async () => ${literal})();`)(readImage, { env }, SAMPLE_IDEMPOTENCY_KEY);
}

/** The request body an SDK sample passes: its first argument. */
const sdkArgument = async (...args: Parameters<typeof sdkArguments>) => (await sdkArguments(...args))[0];

describe("the OpenAPI document's examples", () => {
  it("is still a valid OpenAPI 3.1 document", async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
  });

  it("files every operation under a described tag", () => {
    const described = new Map(doc.tags.map((t) => [t.name, t.description]));
    expect([...described.keys()]).toEqual(["Ranking", "Pairwise", "Requests", "Audiences", "Evaluation"]);
    for (const { op } of operations) {
      expect(op.tags, op.operationId).toHaveLength(1);
      expect(described.get(op.tags![0]!), op.operationId).toBeTruthy();
      expect(op.summary, op.operationId).toBeTruthy();
    }
  });

  it("gives every request body examples that the request schema accepts", () => {
    let checked = 0;
    for (const { op } of operations) {
      const media = op.requestBody?.content["application/json"];
      if (!media) continue;
      const name = schemaName(media);
      expect(Object.keys(media.examples ?? {}).length, op.operationId).toBeGreaterThan(0);
      for (const [key, example] of Object.entries(media.examples!)) {
        const parsed = requestSchemas[name]!.safeParse(example.value);
        expect(parsed.success, `${op.operationId} ${key}: ${parsed.error?.message}`).toBe(true);
        expect(documentSchema(name)(example.value), `${op.operationId} ${key}`).toBe("");
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(7);
  });

  it("gives every response with a body examples that the response schema accepts", () => {
    let checked = 0;
    for (const { op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        const media = response.content?.["application/json"];
        if (!media) continue;
        const names = schemaNames(media);
        expect(Object.keys(media.examples ?? {}).length, `${op.operationId} ${status}`).toBeGreaterThan(0);
        for (const [key, example] of Object.entries(media.examples!)) {
          const what = `${op.operationId} ${status} ${key}`;
          // A oneOf body must be exactly one of its schemas, for zod as for the document.
          const matching = names.filter((name) => responseSchemas[name]!.safeParse(example.value).success);
          expect(matching, `${what}: ${names.map((n) => responseSchemas[n]!.safeParse(example.value).error?.message).join("\n")}`).toHaveLength(1);
          expect(documentSchema(matching[0]!)(example.value), what).toBe("");
          expect(mediaSchema(media)(example.value), what).toBe("");
          checked++;
        }
      }
    }
    // Every operation's statuses, the durable requests' 202, 409 and getRequest's included,
    // and recordOutcomes' and getCalibration's.
    expect(checked).toBeGreaterThanOrEqual(65);
  });

  it("shows the 422 a request gets for the two commonest mistakes, in the service's own words", () => {
    const rank422 = doc.paths["/api/v1/rank"]!.post!.responses["422"]!.content!["application/json"]!.examples!;
    expect(rank422.bothAudiences!.value).toEqual({ error: "Exactly one of audience and audience_id must be present.", field: "audience" });
    expect(rank422.notAnImage!.value).toMatchObject({ field: "assets[0].url" });
  });
});

describe("the code samples", () => {
  const rankMedia = doc.paths["/api/v1/rank"]!.post!.requestBody!.content["application/json"]!;
  const rankAudiencesMedia = doc.paths["/api/v1/rank/audiences"]!.post!.requestBody!.content["application/json"]!;
  // Every data URI the examples send, by the file name the SDK and CLI samples read it from.
  const imageFiles = new Map(
    [rankMedia, rankAudiencesMedia].flatMap((media) => (firstExample(media) as { assets: Array<{ id: string; url: string }> }).assets.map((a) => [a.id, a.url] as const)),
  );

  it("gives every operation a curl, a TypeScript SDK and a CLI sample", () => {
    for (const { op } of operations) {
      expect(op["x-codeSamples"]?.map((s) => s.label), op.operationId).toEqual(["curl", "TypeScript SDK", "CLI"]);
      for (const sample of op["x-codeSamples"]!) expect(sample.source.trim(), `${op.operationId} ${sample.label}`).not.toBe("");
    }
  });

  it("sends with curl exactly the first request example, to the operation's path", () => {
    const base = "https://adrank.example";
    for (const { path, method, op } of operations) {
      const curl = op["x-codeSamples"]!.find((s) => s.label === "curl")!.source;
      const start = `curl ${method === "get" ? "" : `-X ${method.toUpperCase()} `}"$ADRANK_BASE_URL${samplePath(path)}`;
      expect(curl, op.operationId).toMatch(new RegExp(`^${escapeRegExp(start)}(\\?[^"]*)?" \\\\\n`));
      expect(curl).toContain(`-H "Authorization: Bearer $ADRANK_API_KEY"`);
      const media = op.requestBody?.content["application/json"];
      const REQUEST_ID = (media && requestIdIn(firstExample(media))) ?? "0b6c7f9e-4f3a-4d2b-9c1e-2a7d5e8f0a13";
      const sent = curlSends(curl, { ADRANK_BASE_URL: base, ADRANK_API_KEY: "agk_live_test", REQUEST_ID });
      expect(sent.url.startsWith(`${base}${path.replace(/\{\w+\}/, REQUEST_ID)}`), `${op.operationId}: ${sent.url}`).toBe(true);
      if (media) expect(JSON.parse(sent.body), op.operationId).toEqual(firstExample(media));
      else expect(sent.body, op.operationId).toBe("");
    }
  });

  it("passes the SDK the first request example, reading the images from their files", async () => {
    const sdkMethod: Record<string, string> = { rankAssets: "adrank.rank", rankAcrossAudiences: "adrank.rankAcrossAudiences", compareCreativePairs: "adrank.pairwise", createAudience: "adrank.audiences.create", recordOutcomes: "adrank.outcomes.record" };
    for (const { op } of operations) {
      const sdk = op["x-codeSamples"]!.find((s) => s.label === "TypeScript SDK")!.source;
      expect(sdk).toContain(`import { createClient`);
      const media = op.requestBody?.content["application/json"];
      if (op.operationId === "listAudiences") expect(sdk).toContain("adrank.audiences.list()");
      else if (op.operationId === "getRequest") {
        // An asynchronous ranking of the rank example, looked at, then waited for.
        expect(await sdkArgument(sdk, "adrank.rankAsync", imageFiles)).toEqual(firstExample(rankMedia));
        expect(sdk).toContain("adrank.getRequest(accepted.request_id)");
        expect(sdk).toContain("adrank.waitForResult(accepted.request_id)");
      } else if (op.operationId === "getCalibration") {
        // The same query as the curl sample's.
        const curl = op["x-codeSamples"]!.find((s) => s.label === "curl")!.source;
        const query = Object.fromEntries(new URL(/"\$ADRANK_BASE_URL([^"]*)"/.exec(curl)![1]!, "https://adrank.example").searchParams);
        expect(Object.keys(query)).not.toEqual([]);
        expect(await sdkArgument(sdk, "adrank.calibration.get", imageFiles)).toEqual(query);
      } else if (op.operationId === "rankAcrossAudiences") {
        // client.rankAcrossAudiences(body, { idempotencyKey }), the key one the sample keeps for its retries.
        expect(sdk).toContain('import { randomUUID } from "node:crypto";');
        expect(sdk).toContain("const idempotencyKey = randomUUID();");
        expect(await sdkArguments(sdk, sdkMethod[op.operationId]!, imageFiles)).toEqual([firstExample(media!), { idempotencyKey: SAMPLE_IDEMPOTENCY_KEY }]);
      } else {
        // The reader's own request id, read from $REQUEST_ID, stands for the example's.
        const env = { REQUEST_ID: requestIdIn(firstExample(media!)) };
        expect(await sdkArgument(sdk, sdkMethod[op.operationId]!, imageFiles, env), op.operationId).toEqual(firstExample(media!));
      }
    }
  });

  it("runs the CLI on the example's images with its goal, platform, copy and audience", () => {
    const rank = firstExample(rankMedia) as z.input<typeof RankRequest>;
    const cli = doc.paths["/api/v1/rank"]!.post!["x-codeSamples"]!.find((s) => s.label === "CLI")!.source;
    expect(cli).toContain(`adrank rank ${rank.assets.map((a) => a.id).join(" ")} \\`);
    expect(cli).toContain(`--goal ${rank.goal}`);
    expect(cli).toContain(`--platform ${rank.platform}`);
    // The copy file holds each asset's copy_context under its file name.
    const copyJson = /cat > copy.json <<'EOF'\n([\s\S]*?)\nEOF/.exec(cli)![1]!;
    expect(JSON.parse(copyJson)).toEqual(Object.fromEntries(rank.assets.filter((a) => a.copy_context).map((a) => [a.id, a.copy_context])));
    // The persona has demographics, which the CLI takes only on a saved audience.
    expect(cli).toContain("audience_id=$(adrank audiences create");
    for (const [field, value] of Object.entries(rank.audience!.demographics!)) expect(cli).toContain(`--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${value}`);
    expect(cli).toContain(`--audience-id "$audience_id"`);
  });

  it("runs the CLI for several audiences: inline ones from a file, saved ones by --audience-id, in the body's order", () => {
    const body = firstExample(rankAudiencesMedia) as z.input<typeof RankAudiencesRequest>;
    const cli = doc.paths["/api/v1/rank/audiences"]!.post!["x-codeSamples"]!.find((s) => s.label === "CLI")!.source;
    expect(cli).toContain(`adrank rank ${body.assets.map((a) => a.id).join(" ")} \\`);
    expect(cli).toContain(`--goal ${body.goal}`);
    expect(cli).toContain(`--platform ${body.platform}`);
    const copyJson = /cat > copy.json <<'EOF'\n([\s\S]*?)\nEOF/.exec(cli)![1]!;
    expect(JSON.parse(copyJson)).toEqual(Object.fromEntries(body.assets.filter((a) => a.copy_context).map((a) => [a.id, a.copy_context])));
    // The audiences file holds the inline audiences, then each saved one follows as --audience-id.
    const audiencesJson = /cat > audiences.json <<'EOF'\n([\s\S]*?)\nEOF/.exec(cli)![1]!;
    const inline = body.audiences.filter((a) => "name" in a);
    const saved = body.audiences.flatMap((a) => ("audience_id" in a ? [a.audience_id] : []));
    expect(inline.length).toBeGreaterThan(0);
    expect(saved.length).toBeGreaterThan(0);
    expect(JSON.parse(audiencesJson)).toEqual(inline);
    expect(body.audiences).toEqual([...inline, ...saved.map((audience_id) => ({ audience_id }))]);
    const flags = [...cli.matchAll(/^ {2}(--audiences? [^ \n]+|--audience-id [^ \n]+)/gm)].map((m) => m[1]);
    expect(flags).toEqual(["--audiences audiences.json", ...saved.map((id) => `--audience-id ${id}`)]);
  });
});
