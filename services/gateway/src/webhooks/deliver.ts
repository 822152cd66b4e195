import type { IncomingMessage } from "node:http";
import { STATUS_CODES } from "node:http";
import { request } from "node:https";
import { rootCertificates } from "node:tls";
import { pinnedLookup, type HostResolver, type ResolvedAddress } from "@adrank/images";
import { signWebhookPayload } from "@adrank/sdk";
import { vetWebhookHost } from "./vet-webhook-host.ts";

export type WebhookEvent = "request.succeeded" | "request.failed";

/** One attempt's message: the exact result body and what the headers say about it. */
export interface WebhookMessage {
  url: string;
  body: string;
  /** The current secret first; a rotated-out one still valid adds a second v1. */
  secrets: readonly string[];
  event: WebhookEvent;
  requestId: string;
  deliveryId: string;
  /** 1-based. */
  attempt: number;
}

export interface DeliverOptions {
  /** From DNS to the receiver's answer (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** TEST-ONLY (WEBHOOK_ALLOW_LOOPBACK). */
  allowLoopback: boolean;
  /** DNS; the system resolver unless a test injects one. */
  lookup?: HostResolver;
  /** TEST-ONLY: an extra trusted CA (WEBHOOK_CA_FILE). */
  ca?: string;
  /** Unix ms for the signature's timestamp. */
  now?: () => number;
}

export interface DeliveryOutcome {
  /** The receiver answered 2xx. */
  delivered: boolean;
  /** The receiver's HTTP status; null when none arrived. */
  status: number | null;
  /** Why the attempt failed, as a short sentence for the console; null when delivered. */
  error: string | null;
  durationMs: number;
}

/** Receivers answer "ok" or similar; more is read only so the connection ends cleanly. */
const RESPONSE_CAP_BYTES = 64 * 1024;

const TLS_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME|ERR_SSL|ERR_TLS/;

function shown(host: string): string {
  return host.length > 100 ? `${host.slice(0, 100)}…` : host;
}

function tlsProblem(code: string, host: string): string {
  if (code === "ERR_TLS_CERT_ALTNAME_INVALID") return `TLS certificate is not valid for ${host}`;
  if (code === "DEPTH_ZERO_SELF_SIGNED_CERT" || code === "SELF_SIGNED_CERT_IN_CHAIN") return "TLS certificate is self-signed";
  if (code === "CERT_HAS_EXPIRED") return "TLS certificate has expired";
  if (code.includes("CERT") || code === "UNABLE_TO_VERIFY_LEAF_SIGNATURE") return `TLS certificate is not trusted (${code})`;
  return "TLS handshake failed";
}

/** Maps a socket, TLS or parser error to a sentence; never echoes Node's own message. */
function failure(err: unknown, host: string, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `timed out after ${timeoutMs / 1000} s`;
  const code = typeof err === "object" && err !== null && "code" in err ? String(err.code) : "";
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ENETUNREACH" || code === "EHOSTUNREACH" || code === "EADDRNOTAVAIL") return `${host} is unreachable`;
  if (code === "ETIMEDOUT") return "connection timed out";
  if (TLS_CODES.test(code)) return tlsProblem(code, host);
  if (code.startsWith("HPE_")) return "answered with a malformed HTTP response";
  if (code === "ECONNRESET" || code === "ECONNABORTED" || code === "EPIPE") return "connection closed before an answer";
  return code === "" ? "the request failed" : `the request failed (${code})`;
}

function post(url: URL, addresses: readonly ResolvedAddress[], headers: Record<string, string>, payload: Buffer, signal: AbortSignal, ca: string | undefined): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request({
      method: "POST",
      hostname: url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port === "" ? 443 : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers: { ...headers, Host: url.host, "Content-Length": String(payload.byteLength) },
      lookup: pinnedLookup(addresses),
      // A fresh connection per attempt: a pooled socket would skip the address check.
      agent: false,
      signal,
      ...(ca === undefined ? {} : { ca: [...rootCertificates, ca] }),
    });
    req.once("response", resolve);
    req.once("error", reject);
    req.end(payload);
  });
}

/** Reads and discards the answer's body, up to the cap; what the receiver says is not used. */
async function drain(res: IncomingMessage): Promise<void> {
  let total = 0;
  try {
    for await (const chunk of res) {
      total += (chunk as Buffer).length;
      if (total > RESPONSE_CAP_BYTES) break;
    }
  } catch {
    // The status already arrived; a body cut short changes nothing.
  } finally {
    res.destroy();
  }
}

/**
 * Makes one delivery attempt: POSTs the exact body, signed, to the webhook URL. The host is
 * resolved and every address checked now, and the connection is pinned to those addresses (a
 * DNS answer that changed since the request named the URL is caught). Redirects are not
 * followed. Never throws: the outcome says what happened.
 *
 * @example
 * const outcome = await deliverWebhook(message, { timeoutMs: 10_000, allowLoopback: false });
 * // { delivered: false, status: 500, error: "answered 500 (Internal Server Error)", durationMs: 84 }
 */
export async function deliverWebhook(m: WebhookMessage, opts: DeliverOptions): Promise<DeliveryOutcome> {
  const started = performance.now();
  const signal = AbortSignal.timeout(opts.timeoutMs);
  const outcome = (status: number | null, error: string | null): DeliveryOutcome => ({
    delivered: error === null,
    status,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  let url: URL;
  try {
    url = new URL(m.url);
  } catch {
    return outcome(null, "the webhook URL could not be parsed");
  }
  if (url.protocol !== "https:") return outcome(null, "the webhook URL is not https");
  const host = shown(url.hostname);
  try {
    const vetting = await vetWebhookHost(url, { allowLoopback: opts.allowLoopback, lookup: opts.lookup, signal });
    if (!vetting.ok) {
      if (vetting.kind === "unresolved") return outcome(null, `the host name ${host} could not be resolved`);
      return outcome(null, `${vetting.reason}, and webhooks go to public addresses only`);
    }
    const timestamp = Math.floor((opts.now ?? Date.now)() / 1000);
    const headers = {
      "Content-Type": "application/json",
      "Adrank-Signature": await signWebhookPayload(m.body, m.secrets, timestamp),
      "Adrank-Event": m.event,
      "Adrank-Request-Id": m.requestId,
      "Adrank-Delivery-Id": m.deliveryId,
      "Adrank-Delivery-Attempt": String(m.attempt),
      "User-Agent": "adrank-webhooks/1",
    };
    const res = await post(url, vetting.addresses, headers, Buffer.from(m.body, "utf8"), signal, opts.ca);
    const status = res.statusCode ?? 0;
    await drain(res);
    if (status >= 200 && status < 300) return outcome(status, null);
    if (status >= 300 && status < 400) return outcome(status, `redirect not followed (${status})`);
    const text = STATUS_CODES[status];
    return outcome(status, `answered ${status}${text ? ` (${text})` : ""}`);
  } catch (err) {
    return outcome(null, failure(err, host, signal.aborted, opts.timeoutMs));
  }
}
