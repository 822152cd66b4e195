import { request as httpRequest, type ClientRequest } from "node:http";
import { connect } from "node:net";
import type { Body, CorpusContext, Expectation, HostileCase, Json } from "./corpus/types.ts";

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface Sent {
  payload: string | Buffer | undefined;
  /** The parsed JSON request, when the payload is one (for counting assets and pairs). */
  json: Json | null;
  /** Authorization header values sent. */
  authorization: string[];
}

/** What a body becomes on the wire. */
export function prepare(c: HostileCase, ctx: CorpusContext, key: string): Sent {
  const made: Body | undefined = typeof c.body === "function" ? c.body(ctx) : c.body;
  const payload = made === undefined ? undefined : typeof made === "string" || Buffer.isBuffer(made) ? made : JSON.stringify(made);
  let json: Json | null = null;
  if (made !== undefined && typeof made === "object" && !Buffer.isBuffer(made)) json = made as Json;
  else if (typeof payload === "string" && payload.length < 50_000_000) {
    try {
      const parsed: unknown = JSON.parse(payload);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) json = parsed as Json;
    } catch {
      json = null;
    }
  }
  const auth = c.auth === undefined ? `Bearer ${key}` : typeof c.auth === "function" ? c.auth(key) : c.auth;
  return { payload, json, authorization: auth === null ? [] : typeof auth === "string" ? [auth] : [...auth] };
}

/**
 * One request through node:http, so bodies, lengths and headers go out exactly as written,
 * on a connection of its own (a refusal may close it; a pooled socket would then fail the next).
 */
export function send(baseUrl: string, c: HostileCase, sent: Sent): Promise<Reply> {
  const base = new URL(baseUrl);
  const headers: Record<string, string | string[]> = { ...c.headers };
  if (c.contentType !== null && sent.payload !== undefined) headers["content-type"] = c.contentType ?? "application/json";
  // Like fetch and every common client: a body of known size goes with its length, so the
  // server may refuse an oversized one before reading it. A case can still ask for chunked.
  const framed = Object.keys(headers).some((h) => ["content-length", "transfer-encoding"].includes(h.toLowerCase()));
  if (sent.payload !== undefined && !framed) headers["content-length"] = String(Buffer.byteLength(sent.payload));
  if (sent.authorization.length === 1) headers.authorization = sent.authorization[0]!;
  else if (sent.authorization.length > 1) headers.authorization = sent.authorization;
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest({ host: base.hostname, port: base.port, method: c.method ?? "POST", path: c.path, headers, agent: false, timeout: 60_000 }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on("data", (d: Buffer) => chunks.push(d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    // A server may answer (401, 413) and close before the whole body is written: the answer
    // counts. Large bodies go out in slices, so an early answer is read before the write fails.
    req.on("error", (err) => {
      if (!answered) reject(err);
    });
    req.on("timeout", () => req.destroy(new Error("no answer within 60 s")));
    void write(req, sent.payload, () => answered);
  });
}

const SLICE = 256 * 1024;
/** Past this, the headers go first and the server gets a moment to refuse before the body follows. */
const EARLY_ANSWER_BYTES = 20 * 1024 * 1024;

async function write(req: ClientRequest, payload: string | Buffer | undefined, answered: () => boolean): Promise<void> {
  if (payload === undefined) return void req.end();
  const bytes = typeof payload === "string" ? Buffer.from(payload) : payload;
  if (bytes.length <= SLICE) return void req.end(bytes);
  if (bytes.length > EARLY_ANSWER_BYTES) {
    // A declared length over the limit, or a missing key, is answered without reading the
    // body; writing into a connection the server already closed would lose that answer (EPIPE).
    req.flushHeaders();
    for (let waited = 0; waited < 1000 && !answered() && !req.destroyed; waited += 50) await new Promise((r) => setTimeout(r, 50));
  }
  for (let at = 0; at < bytes.length && !answered() && !req.destroyed; at += SLICE) {
    if (!req.write(bytes.subarray(at, at + SLICE))) await drainedOrClosed(req);
  }
  if (!answered() && !req.destroyed) req.end();
}

function drainedOrClosed(req: ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      req.off("drain", done);
      req.off("close", done);
      resolve();
    };
    req.on("drain", done);
    req.on("close", done);
  });
}

/** Bytes as they are over TCP; the answer is parsed just enough to judge it. */
export function sendRaw(baseUrl: string, bytes: string | Buffer): Promise<Reply> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(base.port), base.hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(30_000, () => socket.destroy(new Error("no answer within 30 s")));
    socket.on("data", (d: Buffer) => chunks.push(d));
    socket.on("error", reject);
    socket.on("close", () => {
      const all = Buffer.concat(chunks).toString("utf8");
      const split = all.indexOf("\r\n\r\n");
      if (split < 0) return reject(new Error(`not an HTTP answer: ${JSON.stringify(all.slice(0, 200))}`));
      const [statusLine, ...lines] = all.slice(0, split).split("\r\n");
      const headers: Reply["headers"] = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let text = all.slice(split + 4);
      if (headers["transfer-encoding"] === "chunked") text = unchunk(text);
      // The first answer only: a smuggled second request would answer after it.
      const length = Number(headers["content-length"]);
      if (Number.isFinite(length)) text = Buffer.from(text).subarray(0, length).toString("utf8");
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? "")?.[1] ?? 0), headers, text });
    });
    socket.end(bytes);
  });
}

function unchunk(text: string): string {
  let out = "";
  let rest = text;
  for (;;) {
    const eol = rest.indexOf("\r\n");
    const size = parseInt(rest.slice(0, eol), 16);
    if (!(size > 0)) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}

/** Anything that gives away how the service is built. */
export const INTERNALS = /\bat [\w.<>$]+ \(|node_modules|\/work\/|\/srv\/|\.ts:\d+|\.js:\d+|Error: .*\n\s+at |\bat Object\.|ZodError|SyntaxError|FST_ERR|ECONNREFUSED/;

/** A human sentence: at least three words, ending like a sentence, short enough to read. */
function sentenceProblem(what: string, sentence: unknown, { endsWithStop }: { endsWithStop: boolean }): string | null {
  if (typeof sentence !== "string") return `${what} is not a string: ${JSON.stringify(sentence)?.slice(0, 200)}`;
  if (sentence.trim().split(/\s+/).length < 3) return `${what} is not a sentence: ${JSON.stringify(sentence)}`;
  if (endsWithStop && !/[.!?][`"')]?$/.test(sentence.trim())) return `${what} does not read as a sentence (no full stop): ${JSON.stringify(sentence)}`;
  if (sentence.length > 1000) return `${what} is ${sentence.length} characters long`;
  if (INTERNALS.test(sentence)) return `${what} shows internals: ${sentence.slice(0, 300)}`;
  return null;
}

/** The gateway writes intake sentences with a capital first letter; the corpus writes them as the intake does. */
const matches = (re: RegExp, sentence: string) => re.test(sentence) || re.test(sentence.charAt(0).toLowerCase() + sentence.slice(1));

const operation = (path: string) => (path.startsWith("/api/v1/rank") ? "rank" : path.startsWith("/api/v1/pairwise") ? "pairwise" : path.startsWith("/api/v1/audiences") ? "audiences" : "other");

/** Every problem with an answer: its expectation, plus what every answer must be. */
export function judge(c: HostileCase, reply: Reply, sent: Sent): string[] {
  if (reply.status >= 500) return [`server error ${reply.status}: ${reply.text.slice(0, 300)}`];
  const problems: string[] = [];
  // Image payloads are echoed as asset_url (base64 could spell anything), and a 404 names the
  // path that was asked for: neither says anything about the service, so both are left out.
  const text = reply.text.replace(/data:[^"]*/gi, "data:…").replaceAll(c.path.split("?")[0]!, "<path>");
  if (INTERNALS.test(text)) problems.push(`the body shows internals: ${text.slice(0, 300)}`);
  let body: Json;
  try {
    body = JSON.parse(reply.text) as Json;
  } catch {
    return [...problems, `status ${reply.status} with a body that is not JSON: ${JSON.stringify(reply.text.slice(0, 200))}`];
  }
  return [...problems, ...check(c.expect, c, reply, body, sent)];
}

function check(e: Expectation, c: HostileCase, reply: Reply, body: Json, sent: Sent): string[] {
  if ("anyOf" in e) {
    const outcomes = e.anyOf.map((alternative) => check(alternative, c, reply, body, sent));
    return outcomes.some((p) => p.length === 0) ? [] : [`none of the acceptable answers: ${outcomes.map((p) => p.join("; ")).join(" | ")}`];
  }
  if ("status" in e) return refusal(e, reply, body, c.path.split("?")[0]!);
  const problems: string[] = [];
  const op = operation(c.path);
  const okStatus = op === "audiences" && (c.method ?? "POST") === "POST" ? 201 : 200;
  if (reply.status !== okStatus) return [`expected ${okStatus}, got ${reply.status}: ${reply.text.replace(/data:image[^"]{40}[^"]*/g, "data:…").slice(0, 400)}`];
  if (op === "rank") problems.push(...rankOutcome(e, body, sent));
  else if (op === "pairwise") problems.push(...pairwiseOutcome(e, body, sent));
  if ("ok" in e && e.check && problems.length === 0) {
    try {
      e.check(body);
    } catch (err) {
      problems.push(err instanceof Error ? err.message : String(err));
    }
  }
  return problems;
}

function refusal(e: Extract<Expectation, { status: unknown }>, reply: Reply, body: Json, path: string): string[] {
  const allowed = typeof e.status === "number" ? [e.status] : e.status;
  if (!allowed.includes(reply.status)) return [`expected ${allowed.join(" or ")}, got ${reply.status}: ${reply.text.replace(/data:image[^"]{40}[^"]*/g, "data:…").slice(0, 300)}`];
  const problems: string[] = [];
  const sentence = sentenceProblem("error", typeof body.error === "string" ? body.error.replaceAll(path, "<path>") : body.error, { endsWithStop: true });
  if (sentence) problems.push(`${sentence} (whole body: ${reply.text.slice(0, 200)})`);
  if (reply.text.length > 4096) problems.push(`the error body is ${reply.text.length} bytes: it echoes the input (${reply.text.slice(0, 120)}…)`);
  if (body.field !== undefined && (typeof body.field !== "string" || body.field.length > 256)) problems.push(`field is not a short path: ${String(body.field).slice(0, 120)}…`);
  if (e.field !== undefined && body.field !== e.field) problems.push(`expected field ${e.field}, got ${String(body.field).slice(0, 120)} (${String(body.error).slice(0, 200)})`);
  if (e.error && typeof body.error === "string" && !matches(e.error, body.error)) problems.push(`the error does not say ${e.error}: ${body.error.slice(0, 300)}`);
  if (reply.status === 401 && !reply.headers["www-authenticate"]) problems.push("401 without WWW-Authenticate");
  return problems;
}

/** Evaluations a ranked asset is billed (spec billing rules). */
export function evaluationsOf(r: Json): number {
  return r.score_layer === "full-ad-package" && r.image_only_score !== null && r.image_only_score !== undefined ? 2 : 1;
}

function rankOutcome(e: Expectation, body: Json, sent: Sent): string[] {
  const problems: string[] = [];
  const ranked = body.ranked as Json[];
  const errors = body.errors as Json[];
  if (!Array.isArray(ranked) || !Array.isArray(errors)) return [`not a rank response: ${JSON.stringify(body).slice(0, 300)}`];
  const expected = "assetErrors" in e ? e.assetErrors : {};
  const failedIds = errors.map((x) => String(x.asset_id));
  for (const x of errors) {
    const want = expected[String(x.asset_id)];
    const sentence = sentenceProblem(`the per-asset error of ${x.asset_id}`, x.error, { endsWithStop: false });
    if (sentence) problems.push(sentence);
    else if (!want) problems.push(`asset ${x.asset_id} failed unexpectedly: ${x.error}`);
    else if (!matches(want, x.error)) problems.push(`asset ${x.asset_id} failed, but not saying ${want}: ${x.error}`);
  }
  for (const id of Object.keys(expected)) if (!failedIds.includes(id)) problems.push(`asset ${id} did not fail: ${JSON.stringify(ranked.find((r) => r.asset_id === id) ?? null)?.slice(0, 200)}`);
  const submitted = Array.isArray(sent.json?.assets) ? sent.json.assets.length : null;
  if (submitted !== null && ranked.length + errors.length !== submitted) problems.push(`${submitted} assets sent, ${ranked.length} ranked and ${errors.length} failed`);
  for (const r of ranked) if (!(r.score >= 1 && r.score <= 5)) problems.push(`asset ${r.asset_id} scored ${r.score}, outside 1..5`);
  const s = body.summary as Json;
  if (s.assets_failed !== errors.length || s.assets_ranked !== ranked.length) problems.push(`summary counts ${s.assets_ranked} ranked / ${s.assets_failed} failed, the lists ${ranked.length} / ${errors.length}`);
  const billed = ranked.reduce((n, r) => n + evaluationsOf(r), 0);
  if (s.scoring_evaluations !== billed || s.credits_used !== billed) problems.push(`billed ${s.credits_used} credits for ${s.scoring_evaluations} evaluations; the ranked assets account for ${billed}`);
  return problems;
}

function pairwiseOutcome(e: Expectation, body: Json, sent: Sent): string[] {
  const pairs = body.pairs as Json[];
  if (!Array.isArray(pairs)) return [`not a pairwise response: ${JSON.stringify(body).slice(0, 300)}`];
  const problems: string[] = [];
  const submitted = Array.isArray(sent.json?.pairs) ? sent.json.pairs.length : null;
  if (submitted !== null && pairs.length !== submitted) problems.push(`${submitted} pairs sent, ${pairs.length} answered`);
  if ("pairError" in e) {
    const pair = pairs[0];
    if (!pair || pair.status !== "error") problems.push(`expected the pair to fail, got ${JSON.stringify(pair).slice(0, 300)}`);
    else {
      const sentence = sentenceProblem("the pair's error", pair.error, { endsWithStop: false });
      if (sentence) problems.push(sentence);
      else if (!matches(e.pairError, pair.error)) problems.push(`the pair failed, but not saying ${e.pairError}: ${pair.error}`);
      if (pair.votes.length !== 0) problems.push(`a failed pair carries ${pair.votes.length} votes`);
    }
  } else {
    for (const p of pairs) if (p.status !== "done" || p.votes.length !== 5) problems.push(`pair ${p.pairId} is ${p.status} with ${p.votes?.length} votes: ${String(p.error ?? "")}`);
  }
  const done = pairs.filter((p) => p.status === "done").length;
  if (body.summary.credits_used !== done) problems.push(`billed ${body.summary.credits_used} credits for ${done} completed panels`);
  return problems;
}
