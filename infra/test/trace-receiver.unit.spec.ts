import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { gzipSync } from "node:zlib";
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { JsonTraceSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from "@opentelemetry/sdk-trace";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { decodeOtlpJson } from "../trace-receiver/otlp-json.ts";
import { decodeOtlpProtobuf } from "../trace-receiver/otlp-protobuf.ts";
import { startTraceReceiver, type ReceivedSpan, type TraceReceiver } from "../trace-receiver/receiver.ts";
import { SpanStore } from "../trace-receiver/span-store.ts";
import { fromRoot } from "./support/paths.ts";

// Bodies come from the OpenTelemetry serializers the services' exporters use, so the receiver
// is checked against what the SDK really sends rather than against hand-written fixtures.

/** A tracer of one service whose finished spans stay in memory. */
function serviceTracer(service: string) {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ resource: resourceFromAttributes({ "service.name": service }), spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  return { tracer: provider.getTracer("trace-receiver-test", "1.0.0"), spans: () => exporter.getFinishedSpans() };
}

/** One request across two services: gateway server → gateway client → ledger server (remote parent). */
function rankRequestSpans(): { spans: ReadableSpan[]; traceId: string } {
  const gateway = serviceTracer("gateway");
  const ledger = serviceTracer("ledger");
  const root = gateway.tracer.startSpan("POST /api/v1/rank", {
    kind: SpanKind.SERVER,
    startTime: [1_700_000_000, 123_456_789],
    attributes: { "url.path": "/api/v1/rank", "http.response.status_code": 200, "adrank.score": 0.5, "adrank.cached": false, "adrank.assets": ["a", "b"] },
  });
  const client = gateway.tracer.startSpan("ledger reserve", { kind: SpanKind.CLIENT }, trace.setSpan(ROOT_CONTEXT, root));
  const remoteParent = trace.setSpanContext(ROOT_CONTEXT, { ...client.spanContext(), isRemote: true });
  const server = ledger.tracer.startSpan("ledger reserve", { kind: SpanKind.SERVER, links: [{ context: root.spanContext() }] }, remoteParent);
  // Events, links and a status are on the wire too: the decoder must step over them.
  server.addEvent("reserved", { credits: 3 });
  server.setStatus({ code: SpanStatusCode.ERROR, message: "exhausted" });
  server.end();
  client.end();
  root.end([1_700_000_000, 623_456_789]);
  return { spans: [...gateway.spans(), ...ledger.spans()], traceId: root.spanContext().traceId };
}

const protobufBody = (spans: ReadableSpan[]) => Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
const jsonBody = (spans: ReadableSpan[]) => Buffer.from(JsonTraceSerializer.serializeRequest(spans)!);

async function post(receiver: TraceReceiver, body: Buffer, contentType: string, headers: Record<string, string> = {}, path = "/v1/traces") {
  const res = await fetch(`${receiver.otlp.url}${path}`, { method: "POST", body, headers: { "content-type": contentType, ...headers } });
  return { status: res.status, contentType: res.headers.get("content-type"), body: Buffer.from(await res.arrayBuffer()) };
}

interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references: Array<{ refType: string; traceID: string; spanID: string }>;
  startTime: number;
  duration: number;
  processID: string;
  tags: Array<{ key: string; type: string; value: unknown }>;
}
interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string; tags: unknown[] }>;
}

async function query(receiver: TraceReceiver, path: string) {
  const res = await fetch(`${receiver.query.url}${path}`);
  return { status: res.status, body: (await res.json()) as { data: unknown; errors: unknown } };
}

/** The trace as Jaeger's API answers it, checked to be the rank request's three spans. */
async function expectRankTrace(receiver: TraceReceiver, traceId: string) {
  const res = await query(receiver, `/api/traces/${traceId}`);
  expect(res.status).toBe(200);
  const [jaeger] = res.body.data as JaegerTrace[];
  expect(jaeger!.traceID).toBe(traceId);
  const serviceOf = (s: JaegerSpan) => jaeger!.processes[s.processID]!.serviceName;
  const spans = jaeger!.spans;
  expect(spans.map((s) => `${serviceOf(s)}:${s.operationName}`).sort()).toEqual(["gateway:POST /api/v1/rank", "gateway:ledger reserve", "ledger:ledger reserve"]);

  const root = spans.find((s) => s.operationName === "POST /api/v1/rank")!;
  const client = spans.find((s) => serviceOf(s) === "gateway" && s.operationName === "ledger reserve")!;
  const server = spans.find((s) => serviceOf(s) === "ledger")!;
  expect(root.references).toEqual([]);
  expect(client.references).toEqual([{ refType: "CHILD_OF", traceID: traceId, spanID: root.spanID }]);
  expect(server.references).toEqual([{ refType: "CHILD_OF", traceID: traceId, spanID: client.spanID }]);
  for (const s of spans) expect(s.traceID).toBe(traceId);

  // Microseconds, as Jaeger reports them.
  expect(root.startTime).toBe(1_700_000_000_123_456);
  expect(root.duration).toBe(500_000);
  expect(root.tags).toEqual(
    expect.arrayContaining([
      { key: "url.path", type: "string", value: "/api/v1/rank" },
      { key: "http.response.status_code", type: "int64", value: 200 },
      { key: "adrank.score", type: "float64", value: 0.5 },
      { key: "adrank.cached", type: "bool", value: false },
      { key: "adrank.assets", type: "string", value: '["a","b"]' },
      { key: "span.kind", type: "string", value: "server" },
    ]),
  );
  expect(client.tags).toContainEqual({ key: "span.kind", type: "string", value: "client" });
  expect(Object.values(jaeger!.processes).map((p) => p.serviceName).sort()).toEqual(["gateway", "ledger"]);
}

describe("trace receiver", () => {
  let receiver: TraceReceiver;
  const exports: Array<{ spans: ReceivedSpan[]; body: Buffer }> = [];

  beforeAll(async () => {
    receiver = await startTraceReceiver({ host: "127.0.0.1", otlpPort: 0, queryPort: 0, healthPort: 0, onExport: (spans, body) => exports.push({ spans, body }) });
  });
  afterAll(() => receiver.close());

  test("binds three loopback ports", () => {
    const ports = [receiver.otlp, receiver.query, receiver.health].map((a) => a.port);
    expect(new Set(ports).size).toBe(3);
    expect(receiver.otlp.url).toBe(`http://127.0.0.1:${receiver.otlp.port}`);
  });

  test("accepts an OTLP protobuf export and answers with an empty protobuf response", async () => {
    const { spans, traceId } = rankRequestSpans();
    const res = await post(receiver, protobufBody(spans), "application/x-protobuf");
    expect(res).toMatchObject({ status: 200, contentType: "application/x-protobuf" });
    expect(res.body).toHaveLength(0);
    await expectRankTrace(receiver, traceId);
  });

  test("accepts an OTLP JSON export and answers {}", async () => {
    const { spans, traceId } = rankRequestSpans();
    const res = await post(receiver, jsonBody(spans), "application/json; charset=utf-8");
    expect(res).toMatchObject({ status: 200, contentType: "application/json" });
    expect(res.body.toString()).toBe("{}");
    await expectRankTrace(receiver, traceId);
  });

  test.each([
    ["protobuf", "application/x-protobuf", protobufBody],
    ["JSON", "application/json", jsonBody],
  ])("accepts a gzipped %s export", async (_name, contentType, encode) => {
    const { spans, traceId } = rankRequestSpans();
    const res = await post(receiver, gzipSync(encode(spans)), contentType, { "content-encoding": "gzip" });
    expect(res.status).toBe(200);
    await expectRankTrace(receiver, traceId);
  });

  test("hands each export's spans and decompressed body to onExport", async () => {
    const { spans, traceId } = rankRequestSpans();
    const json = jsonBody(spans);
    await post(receiver, gzipSync(json), "application/json", { "content-encoding": "gzip" });
    const last = exports.at(-1)!;
    expect(last.body.equals(json)).toBe(true);
    expect(last.spans.map((s) => s.traceId)).toEqual([traceId, traceId, traceId]);
    expect(receiver.trace(traceId.toUpperCase())).toHaveLength(3);
  });

  test("lists the services and finds a service's recent traces", async () => {
    const { spans, traceId } = rankRequestSpans();
    await post(receiver, protobufBody(spans), "application/x-protobuf");
    const services = await query(receiver, "/api/services");
    expect(services).toMatchObject({ status: 200, body: { data: ["gateway", "ledger"], errors: null } });
    const recent = await query(receiver, "/api/traces?service=ledger&limit=1");
    expect((recent.body.data as JaegerTrace[]).map((t) => t.traceID)).toEqual([traceId]);
    expect((await query(receiver, "/api/traces")).status).toBe(400);
  });

  test("answers an unknown trace with Jaeger's 404", async () => {
    const res = await query(receiver, `/api/traces/${"ab".repeat(16)}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ data: null, errors: [{ code: 404, msg: "trace not found" }] });
    expect((await query(receiver, "/api/traces/not-hex")).status).toBe(400);
    expect((await query(receiver, "/api/nothing")).status).toBe(404);
  });

  test("refuses other content types with 415", async () => {
    const { spans } = rankRequestSpans();
    expect((await post(receiver, jsonBody(spans), "text/plain")).status).toBe(415);
    expect((await post(receiver, protobufBody(spans), "application/x-protobuf", { "content-encoding": "br" })).status).toBe(415);
  });

  test("refuses undecodable bodies with 400 and an OTLP status in the request's encoding", async () => {
    const body = protobufBody(rankRequestSpans().spans);
    const truncated = await post(receiver, body.subarray(0, body.length - 1), "application/x-protobuf");
    expect(truncated).toMatchObject({ status: 400, contentType: "application/x-protobuf" });
    expect(truncated.body.toString("latin1")).toContain("truncated");
    const badJson = await post(receiver, Buffer.from('{"resourceSpans": ['), "application/json");
    expect(badJson.status).toBe(400);
    expect(JSON.parse(badJson.body.toString())).toMatchObject({ code: 3, message: expect.stringContaining("ExportTraceServiceRequest") });
    expect((await post(receiver, Buffer.from("[]"), "application/json")).status).toBe(400);
    expect((await post(receiver, Buffer.from("not gzip"), "application/json", { "content-encoding": "gzip" })).status).toBe(400);
  });

  test("answers 404 off /v1/traces and 405 to a GET on it", async () => {
    const body = protobufBody(rankRequestSpans().spans);
    expect((await post(receiver, body, "application/x-protobuf", {}, "/v1/metrics")).status).toBe(404);
    expect((await fetch(`${receiver.otlp.url}/v1/traces`)).status).toBe(405);
  });

  test("answers the health check on /status", async () => {
    const res = await fetch(`${receiver.health.url}/status`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "Server available" });
    expect((await fetch(`${receiver.health.url}/other`)).status).toBe(404);
  });
});

describe("body size limit", () => {
  let receiver: TraceReceiver;
  beforeAll(async () => {
    receiver = await startTraceReceiver({ host: "127.0.0.1", otlpPort: 0, queryPort: 0, healthPort: 0, maxBodyBytes: 4096 });
  });
  afterAll(() => receiver.close());

  test("refuses a body over the limit with 413, before and after gunzip", async () => {
    const big = Buffer.from(JSON.stringify({ resourceSpans: [], padding: "x".repeat(10_000) }));
    expect((await post(receiver, big, "application/json")).status).toBe(413);
    // Small on the wire, too large once inflated.
    expect((await post(receiver, gzipSync(big), "application/json", { "content-encoding": "gzip" })).status).toBe(413);
    expect((await post(receiver, Buffer.from("{}"), "application/json")).status).toBe(200);
  });
});

describe("OTLP decoders", () => {
  test("read the same spans from protobuf and from JSON", () => {
    const { spans, traceId } = rankRequestSpans();
    const fromProtobuf = decodeOtlpProtobuf(protobufBody(spans));
    expect(fromProtobuf).toEqual(decodeOtlpJson(jsonBody(spans).toString()));
    const root = fromProtobuf.find((s) => s.parentSpanId === "")!;
    expect(root).toMatchObject({ service: "gateway", traceId, name: "POST /api/v1/rank", kind: 2, startTimeUnixNano: "1700000000123456789", endTimeUnixNano: "1700000000623456789" });
    expect(root.spanId).toMatch(/^[0-9a-f]{16}$/);
  });

  // The SDK's own spans already carry fields the decoder skips (events, links, status, flags).
  test("skip unknown fields of every wire type", () => {
    const body = protobufBody(rankRequestSpans().spans);
    // Fields 10-14 are not in ExportTraceServiceRequest (its tags then fit one byte each).
    const unknown = Buffer.from([
      (10 << 3) | 0, 0x96, 0x01, // varint
      (11 << 3) | 1, 1, 2, 3, 4, 5, 6, 7, 8, // fixed64
      (12 << 3) | 2, 3, 0x61, 0x62, 0x63, // length-delimited
      (13 << 3) | 5, 1, 2, 3, 4, // fixed32
      (14 << 3) | 3, (1 << 3) | 0, 7, (14 << 3) | 4, // group holding a varint
    ]);
    expect(decodeOtlpProtobuf(Buffer.concat([unknown, body]))).toEqual(decodeOtlpProtobuf(body));
  });

  test("throw on malformed protobuf", () => {
    expect(() => decodeOtlpProtobuf(Buffer.from([(1 << 3) | 2, 10, 0]))).toThrow(/truncated/);
    expect(() => decodeOtlpProtobuf(Buffer.from([(1 << 3) | 7]))).toThrow(/wire type/);
    expect(() => decodeOtlpProtobuf(Buffer.from([(2 << 3) | 3, (3 << 3) | 4]))).toThrow(/end group/);
  });

  test("keep negative and large int64 attributes exact", () => {
    const { tracer, spans } = serviceTracer("gateway");
    tracer.startSpan("s", { attributes: { negative: -5, large: 2 ** 60 } }).end();
    expect(decodeOtlpProtobuf(protobufBody(spans()))[0]!.attributes).toEqual({ negative: -5, large: String(2n ** 60n) });
  });
});

describe("SpanStore", () => {
  const span = (traceId: string, service: string, n: number): ReceivedSpan => ({ service, traceId, spanId: String(n).padStart(16, "0"), parentSpanId: "", name: `op${n}`, kind: 1, attributes: {}, startTimeUnixNano: "0", endTimeUnixNano: "0" });

  test("keeps the newest spans only, and forgets traces and services with them", () => {
    const store = new SpanStore(3);
    store.add([span("t1", "gateway", 1), span("t2", "ledger", 2), span("t1", "gateway", 3)]);
    store.add([span("t3", "scorer", 4), span("t3", "scorer", 5)]);
    expect(store.size).toBe(3);
    expect(store.trace("t1").map((s) => s.name)).toEqual(["op3"]);
    expect(store.trace("t2")).toEqual([]);
    expect(store.services()).toEqual(["gateway", "scorer"]);
    expect(store.recentTraceIds("scorer", 10)).toEqual(["t3"]);
    for (let i = 0; i < 20; i++) store.add([span(`u${i}`, "refinement", i)]);
    expect(store.size).toBe(3);
    expect(store.services()).toEqual(["refinement"]);
    expect(store.recentTraceIds("refinement", 2)).toEqual(["u19", "u18"]);
  });
});

describe("main.ts", () => {
  test("starts on the given ports, logs one line and stops cleanly on SIGTERM", async () => {
    const child = spawn(process.execPath, [fromRoot("infra/trace-receiver/main.ts")], {
      env: { ...process.env, HOST: "127.0.0.1", OTLP_PORT: "0", QUERY_PORT: "0", HEALTH_PORT: "0" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
    const started = JSON.parse(line) as { msg: string; health: string };
    expect(started.msg).toBe("trace-receiver started");
    expect((await fetch(`http://${started.health}/status`)).status).toBe(200);
    child.kill("SIGTERM");
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
  });
});
