import { WEBHOOK_URL_MAX_CHARS, webhookUrlProblem } from "@adrank/contracts";
import type { HostResolver } from "@adrank/images";
import { vetWebhookHost } from "./vet-webhook-host.ts";

export interface CheckWebhookUrlOptions {
  /** TEST-ONLY (WEBHOOK_ALLOW_LOOPBACK): also accept 127.0.0.0/8 and ::1. */
  allowLoopback: boolean;
  /** DNS; the system resolver unless a test injects one. */
  lookup?: HostResolver;
}

/** A request waits for this check, so a name server that never answers must not hold it. */
const DNS_TIMEOUT_MS = 5_000;

function shown(host: string): string {
  return host.length > 100 ? `${host.slice(0, 100)}…` : host;
}

/**
 * Checks a webhook_url when a request names one: https, no credentials, and a host whose every
 * address is public (the image intake's rules). Null when it may be used, else the sentence of
 * the 422 (field webhook_url). Delivery checks the addresses again when it connects, because
 * DNS may answer differently by then.
 *
 * @example
 * await checkWebhookUrl("https://10.0.0.5/hook", { allowLoopback: false });
 * // "webhook_url must point at a public address, and the address 10.0.0.5 is in a private network."
 */
export async function checkWebhookUrl(url: string, opts: CheckWebhookUrlOptions): Promise<string | null> {
  if (url.length > WEBHOOK_URL_MAX_CHARS) return `webhook_url must be at most ${WEBHOOK_URL_MAX_CHARS} characters long.`;
  const problem = webhookUrlProblem(url);
  if (problem) return `webhook_url ${problem}.`;
  const parsed = new URL(url);
  let vetting;
  try {
    vetting = await vetWebhookHost(parsed, { allowLoopback: opts.allowLoopback, lookup: opts.lookup, signal: AbortSignal.timeout(DNS_TIMEOUT_MS) });
  } catch {
    return `webhook_url's host name ${shown(parsed.hostname)} did not resolve within ${DNS_TIMEOUT_MS / 1000} s.`;
  }
  if (vetting.ok) return null;
  if (vetting.kind === "unresolved") return `webhook_url's host name ${shown(vetting.host)} could not be resolved.`;
  if (vetting.literal) return `webhook_url must point at a public address, and ${vetting.reason}.`;
  return `webhook_url must point at public addresses only, and ${shown(vetting.host)} resolves to one that is not: ${vetting.reason}.`;
}
