// A stand-in for Jaeger where its image cannot be pulled: OTLP/HTTP in (protobuf or JSON,
// optionally gzipped, as the OpenTelemetry SDK sends them), spans kept in memory, and the
// part of Jaeger's query API that scripts use. Node built-ins only, so it runs from its
// TypeScript sources on a bare Node image. Ports as Jaeger's: OTLP 4318, query 16686,
// health 13133.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import { jaegerResponse, toJaegerTrace } from "./jaeger.ts";
import { decodeOtlpJson } from "./otlp-json.ts";
import { decodeOtlpProtobuf } from "./otlp-protobuf.ts";
import type { ReceivedSpan } from "./span.ts";
import { SpanStore } from "./span-store.ts";

export type { AttributeValue, ReceivedSpan } from "./span.ts";

export interface TraceReceiverOptions {
  host: string;
  /** 0 picks a free port, for each of the three. */
  otlpPort: number;
  queryPort: number;
  healthPort: number;
  /** The newest spans kept for the query API (default 100 000). */
  maxSpans?: number;
  /** The largest export body accepted, before and after gunzip (default 16 MiB); larger is a 413. */
  maxBodyBytes?: number;
  /** Sees every accepted export: its spans and its body (after gunzip). */
  onExport?: (spans: ReceivedSpan[], body: Buffer) => void;
}

export interface BoundAddress {
  host: string;
  port: number;
  /** Base URL to reach it; a wildcard host is reached on loopback. */
  url: string;
}

export interface TraceReceiver {
  otlp: BoundAddress;
  query: BoundAddress;
  health: BoundAddress;
  /** The kept spans of one trace, in arrival order. */
  trace(traceId: string): ReceivedSpan[];
  /** The service names of the kept spans, sorted. */
  services(): string[];
  close(): Promise<void>;
}

type Encoding = "protobuf" | "json";
const CONTENT_TYPES: Record<string, Encoding> = { "application/x-protobuf": "protobuf", "application/json": "json" };

class HttpError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** The request body, refusing (413) to buffer more than `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers["content-length"] ?? 0) > limit) return reject(new HttpError(413, `body larger than ${limit} bytes`));
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else reject(new HttpError(413, `body larger than ${limit} bytes`));
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

async function decompress(body: Buffer, contentEncoding: string | undefined, limit: number): Promise<Buffer> {
  const encoding = (contentEncoding ?? "identity").trim().toLowerCase();
  if (encoding === "identity" || encoding === "") return body;
  if (encoding !== "gzip") throw new HttpError(415, `unsupported content-encoding ${encoding}`);
  try {
    // The cap on the output keeps a small gzip bomb from filling the memory.
    return await promisify(gunzip)(body, { maxOutputLength: limit });
  } catch (err) {
    if ((err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw new HttpError(413, `body larger than ${limit} bytes once decompressed`);
    throw new HttpError(400, "body is not valid gzip");
  }
}

function varint(n: number): number[] {
  const out: number[] = [];
  for (; n >= 0x80; n = Math.floor(n / 0x80)) out.push((n % 0x80) | 0x80);
  return [...out, n];
}

/** An OTLP error body: google.rpc.Status (code=1, message=2) in the request's encoding. */
function statusBody(encoding: Encoding, grpcCode: number, message: string): Buffer {
  if (encoding === "json") return Buffer.from(JSON.stringify({ code: grpcCode, message }));
  const text = Buffer.from(message);
  return Buffer.from([0x08, ...varint(grpcCode), 0x12, ...varint(text.length), ...text]);
}

const GRPC_CODE: Record<number, number> = { 400: 3, 413: 8 }; // INVALID_ARGUMENT, RESOURCE_EXHAUSTED

function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers }).end(text);
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

function otlpHandler(store: SpanStore, options: TraceReceiverOptions) {
  const limit = options.maxBodyBytes ?? 16 * 1024 * 1024;
  return async (req: IncomingMessage, res: ServerResponse) => {
    if (new URL(req.url ?? "/", "http://otlp").pathname !== "/v1/traces") return sendText(res, 404, "not found");
    if (req.method !== "POST") return sendText(res, 405, "POST only", { allow: "POST" });
    const encoding = CONTENT_TYPES[(req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase()];
    if (!encoding) {
      req.resume();
      return sendText(res, 415, "content-type must be application/x-protobuf or application/json");
    }
    let body: Buffer;
    let spans: ReceivedSpan[];
    try {
      body = await decompress(await readBody(req, limit), req.headers["content-encoding"], limit);
      try {
        spans = encoding === "json" ? decodeOtlpJson(body.toString("utf8")) : decodeOtlpProtobuf(body);
      } catch (err) {
        throw new HttpError(400, `not an ExportTraceServiceRequest: ${(err as Error).message}`);
      }
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      if (err.status === 415) return sendText(res, 415, err.message);
      // Stop reading an oversized upload: answer, then close the connection.
      if (err.status === 413) req.resume();
      const headers = { "content-type": encoding === "json" ? "application/json" : "application/x-protobuf", ...(err.status === 413 ? { connection: "close" } : {}) };
      return res.writeHead(err.status, headers).end(statusBody(encoding, GRPC_CODE[err.status] ?? 2, err.message));
    }
    store.add(spans);
    options.onExport?.(spans, body);
    // An empty ExportTraceServiceResponse: no bytes in protobuf, {} in JSON.
    if (encoding === "json") res.writeHead(200, { "content-type": "application/json" }).end("{}");
    else res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
  };
}

function queryHandler(store: SpanStore) {
  const notFound = (msg: string) => jaegerResponse(null, [{ code: 404, msg }]);
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://query");
    if (req.method !== "GET") return sendJson(res, 405, jaegerResponse(null, [{ code: 405, msg: "GET only" }]));
    if (url.pathname === "/api/services") return sendJson(res, 200, jaegerResponse(store.services()));
    if (url.pathname === "/api/traces") {
      const service = url.searchParams.get("service");
      if (!service) return sendJson(res, 400, jaegerResponse(null, [{ code: 400, msg: "parameter 'service' is required" }]));
      const limit = Math.min(Math.max(Number(url.searchParams.get("limit")) || 100, 1), 1000);
      return sendJson(res, 200, jaegerResponse(store.recentTraceIds(service, limit).map((id) => toJaegerTrace(id, store.trace(id)))));
    }
    const byId = /^\/api\/traces\/([^/]+)$/.exec(url.pathname);
    if (byId) {
      // Jaeger accepts ids without their leading zeros and in either case.
      if (!/^[0-9a-fA-F]{1,32}$/.test(byId[1]!)) return sendJson(res, 400, jaegerResponse(null, [{ code: 400, msg: "invalid trace id" }]));
      const traceId = byId[1]!.toLowerCase().padStart(32, "0");
      const spans = store.trace(traceId);
      return spans.length === 0 ? sendJson(res, 404, notFound("trace not found")) : sendJson(res, 200, jaegerResponse([toJaegerTrace(traceId, spans)]));
    }
    sendJson(res, 404, notFound("not found"));
  };
}

/** Jaeger v2's healthcheckv2 extension answers GET /status. */
function healthHandler(upSince: Date) {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === "GET" && new URL(req.url ?? "/", "http://health").pathname === "/status") sendJson(res, 200, { status: "Server available", upSince: upSince.toISOString() });
    else sendText(res, 404, "not found");
  };
}

async function listen(server: Server, host: string, port: number): Promise<BoundAddress> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const reachable = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;
  return { host, port: bound, url: `http://${reachable.includes(":") ? `[${reachable}]` : reachable}:${bound}` };
}

export async function startTraceReceiver(options: TraceReceiverOptions): Promise<TraceReceiver> {
  const store = new SpanStore(options.maxSpans ?? 100_000);
  const handleOtlp = otlpHandler(store, options);
  const otlpServer = createServer((req, res) => {
    handleOtlp(req, res).catch((err: unknown) => {
      console.error("trace-receiver: export failed", err);
      if (!res.headersSent) sendText(res, 500, "internal error");
    });
  });
  const servers = [otlpServer, createServer(queryHandler(store)), createServer(healthHandler(new Date()))];
  const closeAll = () =>
    Promise.all(
      servers.map(
        (s) =>
          new Promise<void>((resolve) => {
            if (!s.listening) return resolve();
            s.close(() => resolve());
            // The store lives in memory and goes with the process: nothing to drain.
            s.closeAllConnections();
          }),
      ),
    ).then(() => undefined);
  try {
    const [otlp, query, health] = [
      await listen(servers[0]!, options.host, options.otlpPort),
      await listen(servers[1]!, options.host, options.queryPort),
      await listen(servers[2]!, options.host, options.healthPort),
    ];
    return { otlp, query, health, trace: (traceId) => store.trace(traceId.toLowerCase()), services: () => store.services(), close: closeAll };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
