import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/**
 * Server-side check of an AWS Signature Version 4 `Authorization` header, written from AWS's
 * published specification (IAM User Guide, "Create a signed AWS API request" and "Elements of
 * an AWS API request signature": https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html,
 * formerly docs.aws.amazon.com/general/latest/gr/sigv4-create-canonical-request.html) with
 * node:crypto only. It shares no code with the AWS SDK's signer, so a test that passes proves
 * the SDK signed what the service would verify, not that two copies of one routine agree.
 */

export const SIGV4_ALGORITHM = "AWS4-HMAC-SHA256";

/** The request as the server received it; `path` is the raw request target, query included. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact body bytes (or text) the server received. */
  body: Uint8Array | string;
}

export interface SigV4Secret {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** The signing name, "bedrock" for Bedrock Runtime. */
  service: string;
}

/** Why a request was refused, by the error name AWS answers with (all HTTP 403 for Bedrock). */
export type SigV4Failure =
  | { ok: false; errorType: "MissingAuthenticationTokenException"; message: string }
  | { ok: false; errorType: "IncompleteSignatureException"; message: string }
  | { ok: false; errorType: "UnrecognizedClientException"; message: string }
  | { ok: false; errorType: "InvalidSignatureException"; message: string };

export type SigV4Verdict = { ok: true; accessKeyId: string } | SigV4Failure;

const sha256Hex = (data: Uint8Array | string) => createHash("sha256").update(data).digest("hex");
const hmac = (key: Uint8Array | string, data: string) => createHmac("sha256", key).update(data, "utf8").digest();

/** RFC 3986 percent-encoding as SigV4 asks: everything but A-Z a-z 0-9 - _ . ~ is %XX, hex upper-case. */
export function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The canonical URI of a service other than S3: the path normalized (empty and "." segments
 * dropped, ".." resolved) and each segment URI-encoded again, on top of the client's own
 * encoding ("each path segment must be URI-encoded twice", except S3). A Bedrock model id
 * such as `...-v1:0` reaches the server as `...-v1%3A0` and is signed as `...-v1%253A0`.
 */
export function canonicalUri(rawPath: string): string {
  const segments: string[] = [];
  for (const segment of rawPath.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  if (segments.length === 0) return "/";
  return `/${segments.map(uriEncode).join("/")}${rawPath.endsWith("/") ? "/" : ""}`;
}

/** Query parameters URI-encoded by name and value, sorted by encoded name then value, joined by "&". */
export function canonicalQuery(rawQuery: string): string {
  if (!rawQuery) return "";
  const pairs = rawQuery
    .split("&")
    .filter((p) => p !== "")
    .map((p) => {
      const eq = p.indexOf("=");
      const name = decodeURIComponent(eq < 0 ? p : p.slice(0, eq));
      const value = eq < 0 ? "" : decodeURIComponent(p.slice(eq + 1));
      return [uriEncode(name), uriEncode(value)] as const;
    });
  pairs.sort(([an, av], [bn, bv]) => (an < bn ? -1 : an > bn ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return pairs.map(([n, v]) => `${n}=${v}`).join("&");
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  if (v === undefined) return undefined;
  // Repeated headers are joined by commas; values are trimmed and inner runs of spaces collapsed.
  return (Array.isArray(v) ? v : [v]).map((x) => String(x).trim().replace(/\s+/g, " ")).join(",");
}

/** The six-line canonical request: method, URI, query, headers block, signed-header list, payload hash. */
export function canonicalRequest(req: Pick<ReceivedRequest, "method" | "path" | "headers">, signedHeaders: string[], payloadHash: string): string {
  const q = req.path.indexOf("?");
  const rawPath = q < 0 ? req.path : req.path.slice(0, q);
  const rawQuery = q < 0 ? "" : req.path.slice(q + 1);
  const headerLines = signedHeaders.map((name) => `${name}:${headerValue(req.headers, name) ?? ""}\n`).join("");
  return [req.method.toUpperCase(), canonicalUri(rawPath), canonicalQuery(rawQuery), headerLines, signedHeaders.join(";"), payloadHash].join("\n");
}

/** Algorithm, request time, credential scope and the hex SHA-256 of the canonical request. */
export function stringToSign(amzDate: string, scope: string, canonical: string): string {
  return [SIGV4_ALGORITHM, amzDate, scope, sha256Hex(canonical)].join("\n");
}

/** kSigning = HMAC(HMAC(HMAC(HMAC("AWS4" + secret, date), region), service), "aws4_request"). */
export function signingKey(secretAccessKey: string, date: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date), region), service), "aws4_request");
}

/** The hex signature of a request, for the given signed headers and credentials. */
export function signatureOf(req: ReceivedRequest, secret: SigV4Secret, amzDate: string, signedHeaders: string[]): string {
  const date = amzDate.slice(0, 8);
  const scope = `${date}/${secret.region}/${secret.service}/aws4_request`;
  // x-amz-content-sha256 is optional outside S3; when sent, it must equal the body's hash.
  const payloadHash = sha256Hex(req.body);
  const sts = stringToSign(amzDate, scope, canonicalRequest(req, signedHeaders, payloadHash));
  return hmac(signingKey(secret.secretAccessKey, date, secret.region, secret.service), sts).toString("hex");
}

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$/;
const AMZ_DATE = /^(\d{8})T\d{6}Z$/;
/** A signed request is honoured for 15 minutes either side of the server's clock. */
const MAX_SKEW_MS = 15 * 60_000;

function amzDateMs(amzDate: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate)!;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

/**
 * Recomputes the signature of `req` with `secret` and compares it in constant time with the
 * one the client sent. `now` bounds the request time (null skips that check, for the
 * published example requests dated 2015).
 */
export function verifySigV4(req: ReceivedRequest, secret: SigV4Secret, now: number | null = Date.now()): SigV4Verdict {
  const authorization = headerValue(req.headers, "authorization");
  if (!authorization) return { ok: false, errorType: "MissingAuthenticationTokenException", message: "Missing Authentication Token" };
  const parts = AUTHORIZATION.exec(authorization);
  if (!parts) return { ok: false, errorType: "IncompleteSignatureException", message: "Authorization header requires Credential, SignedHeaders and Signature of the AWS4-HMAC-SHA256 algorithm." };
  const [, credential, signedList, sent] = parts as unknown as [string, string, string, string];
  const [accessKeyId, date, region, service, terminator, ...extra] = credential.split("/");
  if (!accessKeyId || !date || !region || !service || terminator !== "aws4_request" || extra.length > 0) {
    return { ok: false, errorType: "IncompleteSignatureException", message: "Credential must be accessKeyId/date/region/service/aws4_request." };
  }
  if (accessKeyId !== secret.accessKeyId) return { ok: false, errorType: "UnrecognizedClientException", message: "The security token included in the request is invalid." };
  const amzDate = headerValue(req.headers, "x-amz-date");
  const dateMatch = amzDate ? AMZ_DATE.exec(amzDate) : null;
  if (!amzDate || !dateMatch) return { ok: false, errorType: "IncompleteSignatureException", message: "Authorization requires an x-amz-date header of the form YYYYMMDDTHHMMSSZ." };
  if (dateMatch[1] !== date) return { ok: false, errorType: "InvalidSignatureException", message: "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP." };
  if (region !== secret.region) return { ok: false, errorType: "InvalidSignatureException", message: `Credential should be scoped to a valid region, not '${region}'.` };
  if (service !== secret.service) return { ok: false, errorType: "InvalidSignatureException", message: `Credential should be scoped to correct service: '${secret.service}'.` };
  if (now !== null && Math.abs(now - amzDateMs(amzDate)) > MAX_SKEW_MS) return { ok: false, errorType: "InvalidSignatureException", message: "Signature expired." };
  const signedHeaders = signedList.split(";");
  const sorted = [...signedHeaders].sort();
  // The list must be lower-case, sorted, and include host and x-amz-date (both must be signed).
  if (signedHeaders.some((h, i) => h !== h.toLowerCase() || h !== sorted[i]) || !signedHeaders.includes("host") || !signedHeaders.includes("x-amz-date")) {
    return { ok: false, errorType: "InvalidSignatureException", message: "SignedHeaders must be lower-case, sorted and include host and x-amz-date." };
  }
  const declaredHash = headerValue(req.headers, "x-amz-content-sha256");
  if (declaredHash !== undefined && declaredHash !== sha256Hex(req.body)) return { ok: false, errorType: "InvalidSignatureException", message: "The provided x-amz-content-sha256 header does not match what was computed." };
  const token = headerValue(req.headers, "x-amz-security-token");
  if (token !== undefined && !signedHeaders.includes("x-amz-security-token")) return { ok: false, errorType: "InvalidSignatureException", message: "x-amz-security-token must be signed." };
  const expected = Buffer.from(signatureOf(req, secret, amzDate, signedHeaders), "hex");
  const given = Buffer.from(sent, "hex");
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return { ok: false, errorType: "InvalidSignatureException", message: "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method." };
  }
  return { ok: true, accessKeyId };
}
