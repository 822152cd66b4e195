import type { IncomingMessage } from "node:http";
import { STATUS_CODES } from "node:http";
import { request } from "node:https";
import { rootCertificates } from "node:tls";
import { checkHttpsUrl, type CheckedHttpsUrl } from "./https-url-policy.ts";
import { IntakeRefusal, isIntakeRefusal } from "./intake-refusal.ts";
import { pinnedLookup } from "./pinned-lookup.ts";
import { readCappedBody } from "./read-capped-body.ts";
import type { HostResolver, ResolvedAddress } from "./resolve-host.ts";
import { vetHost } from "./vet-host.ts";

export interface FetchHttpsImageOptions {
  maxBytes: number;
  maxRedirects: number;
  allowLoopback: boolean;
  resolver: HostResolver;
  /** Extra trusted CA (tests). */
  ca?: string | Buffer;
  /** Aborted with an IntakeRefusal as its reason (time-out or cancellation). */
  signal: AbortSignal;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const ACCEPT = "image/png,image/jpeg,image/webp,image/gif;q=0.9,*/*;q=0.1";

const TLS_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME|ERR_SSL|ERR_TLS/;

/** Maps a socket, TLS or HTTP parser error to a sentence; never echoes Node's own message. */
function fetchError(err: unknown, host: string, signal: AbortSignal): unknown {
  if (signal.aborted) return signal.reason;
  if (isIntakeRefusal(err)) return err;
  const code = typeof err === "object" && err !== null && "code" in err ? String(err.code) : "";
  const say = (sentence: string) => new IntakeRefusal("fetch-failed", sentence, { cause: err });
  if (code === "ECONNREFUSED") return say(`the image host ${host} refused the connection`);
  if (["ENETUNREACH", "EHOSTUNREACH", "ETIMEDOUT", "EADDRNOTAVAIL"].includes(code)) return say(`the image host ${host} could not be reached`);
  if (TLS_CODES.test(code)) return say(`the image host ${host} did not present a valid TLS certificate for its name`);
  if (code.startsWith("HPE_")) return say(`the image host ${host} sent a malformed HTTP response`);
  if (code === "ECONNRESET" || code === "ECONNABORTED" || code === "EPIPE") return say(`the connection to ${host} closed before the image arrived`);
  return say(`the image could not be fetched from ${host}`);
}

function requestOnce(checked: CheckedHttpsUrl, addresses: readonly ResolvedAddress[], opts: FetchHttpsImageOptions): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request({
      method: "GET",
      hostname: checked.host,
      port: checked.port === "" ? 443 : Number(checked.port),
      path: `${checked.url.pathname}${checked.url.search}`,
      headers: { host: checked.url.host, accept: ACCEPT, "accept-encoding": "identity", "user-agent": "adrank-image-intake/1" },
      lookup: pinnedLookup(addresses),
      // A fresh connection per request: a pooled socket would skip the address check.
      agent: false,
      signal: opts.signal,
      ...(opts.ca === undefined ? {} : { ca: [...rootCertificates, opts.ca.toString()] }),
    });
    req.once("response", resolve);
    req.once("error", reject);
    req.end();
  });
}

function nextUrl(res: IncomingMessage, from: URL, hops: number, maxRedirects: number): URL {
  const location = res.headers.location;
  res.destroy();
  if (hops >= maxRedirects) throw new IntakeRefusal("fetch-failed", `the image URL redirected more than ${maxRedirects} times`);
  if (!location) throw new IntakeRefusal("fetch-failed", `the image URL answered HTTP ${res.statusCode} without saying where the image is`);
  try {
    return new URL(location, from);
  } catch {
    throw new IntakeRefusal("fetch-failed", "the image URL redirected to a location that could not be parsed");
  }
}

/** Every hop passes the same URL and address checks; a redirect's refusal says it was one. */
async function vetHop(target: string | URL, hops: number, opts: FetchHttpsImageOptions): Promise<{ checked: CheckedHttpsUrl; addresses: readonly ResolvedAddress[] }> {
  if (hops > 0 && target instanceof URL && target.protocol !== "https:") {
    throw new IntakeRefusal("fetch-failed", `the image URL redirected to a non-https URL (${target.protocol.slice(0, 20)}), and only https redirects are followed`);
  }
  try {
    const checked = checkHttpsUrl(target);
    if (!checked.ok) throw new IntakeRefusal(checked.kind, checked.error);
    return { checked, addresses: await vetHost(checked, opts) };
  } catch (err) {
    if (hops === 0 || !isIntakeRefusal(err) || opts.signal.aborted) throw err;
    throw new IntakeRefusal(err.kind, `after a redirect, ${err.message}`);
  }
}

/**
 * Fetches an image over https from public addresses only. Every hop is checked the same way
 * (URL policy, DNS answers classified, connection pinned to the vetted addresses), at most
 * `maxRedirects` redirects are followed, and the body is capped at `maxBytes`. Throws
 * IntakeRefusal; aborting `signal` stops DNS, connection and download alike.
 */
export async function fetchHttpsImage(input: string, opts: FetchHttpsImageOptions): Promise<Buffer> {
  let target: string | URL = input;
  for (let hops = 0; ; hops++) {
    const { checked, addresses } = await vetHop(target, hops, opts);
    let res: IncomingMessage;
    try {
      res = await requestOnce(checked, addresses, opts);
    } catch (err) {
      throw fetchError(err, checked.host, opts.signal);
    }
    const status = res.statusCode ?? 0;
    if (REDIRECTS.has(status)) {
      target = nextUrl(res, checked.url, hops, opts.maxRedirects);
      continue;
    }
    if (status !== 200) {
      res.destroy();
      const text = STATUS_CODES[status];
      throw new IntakeRefusal("fetch-failed", `the image URL answered HTTP ${status}${text ? ` (${text})` : ""} instead of the image`);
    }
    try {
      return await readCappedBody(res, opts.maxBytes);
    } catch (err) {
      throw fetchError(err, checked.host, opts.signal);
    }
  }
}
