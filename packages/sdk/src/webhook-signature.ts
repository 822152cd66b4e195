// Webhook signatures: `Adrank-Signature: t=<unix seconds>,v1=<hex>` where the hex is
// HMAC-SHA256 over `<t>.<raw body>` under the account's webhook secret. While a rotated-out
// secret is still valid the header carries a second v1, so a receiver holding either secret
// verifies. Web Crypto, so it runs wherever the SDK runs; the gateway signs with this same code.

export const WEBHOOK_SIGNATURE_HEADER = "Adrank-Signature";
/** How far a signature's timestamp may be from the receiver's clock: replays older than this are refused. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

const encoder = new TextEncoder();

/** HMAC-SHA256 of `<timestamp>.<body>` over the body's exact bytes (never re-encoded). */
async function hmacHex(secret: string, timestamp: number, body: string | Uint8Array): Promise<string> {
  const prefix = encoder.encode(`${timestamp}.`);
  const bytes = typeof body === "string" ? encoder.encode(body) : body;
  const message = new Uint8Array(prefix.length + bytes.length);
  message.set(prefix);
  message.set(bytes, prefix.length);
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
  return Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The Adrank-Signature header value for `body` sent at `timestamp` (Unix seconds), one v1 per secret. */
export async function signWebhookPayload(body: string, secrets: readonly string[], timestamp: number): Promise<string> {
  if (secrets.length === 0) throw new Error("signWebhookPayload needs at least one secret");
  const signatures = await Promise.all(secrets.map((s) => hmacHex(s, timestamp, body)));
  return [`t=${timestamp}`, ...signatures.map((s) => `v1=${s}`)].join(",");
}

export type WebhookVerification = { ok: true; timestamp: number } | { ok: false; reason: string };

export interface VerifyWebhookOptions {
  /** Seconds of allowed clock difference (default 300). */
  toleranceSeconds?: number;
  /** Unix seconds "now" (tests). */
  now?: number;
}

/**
 * Checks an Adrank-Signature header against the raw request body (the exact bytes received,
 * before any JSON parsing) and your webhook secret. Never throws on bad input: it says why.
 */
export async function verifyWebhookSignature(rawBody: string | Uint8Array, header: string | null | undefined, secret: string, options: VerifyWebhookOptions = {}): Promise<WebhookVerification> {
  if (!header) return { ok: false, reason: `no ${WEBHOOK_SIGNATURE_HEADER} header` };
  const parts = header.split(",").map((p) => p.trim());
  const t = parts.find((p) => p.startsWith("t="))?.slice(2);
  const candidates = parts.filter((p) => p.startsWith("v1=")).map((p) => p.slice(3));
  const timestamp = t !== undefined && /^\d{1,12}$/.test(t) ? Number(t) : NaN;
  if (!Number.isFinite(timestamp) || candidates.length === 0) return { ok: false, reason: `${WEBHOOK_SIGNATURE_HEADER} header is malformed` };
  const tolerance = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > tolerance) return { ok: false, reason: `timestamp is more than ${tolerance} s from now (a replay, or a clock off)` };
  const expected = await hmacHex(secret, timestamp, rawBody);
  return candidates.some((c) => constantTimeEqual(c, expected)) ? { ok: true, timestamp } : { ok: false, reason: "no signature matches this secret and body" };
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
