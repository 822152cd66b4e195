import { isIP } from "node:net";
import { intakeFailure, type IntakeFailure } from "./intake-refusal.ts";

export interface CheckedHttpsUrl {
  ok: true;
  url: URL;
  /** Host name or IP literal without IPv6 brackets, as URL parsing normalized it. */
  host: string;
  /** 4 or 6 for an IP literal (decimal, octal and hex IPv4 forms are already dotted here), 0 for a name. */
  ipVersion: 0 | 4 | 6;
  /** Non-empty only for a port other than 443; the port policy is in vet-host.ts. */
  port: string;
}

/**
 * Checks an image URL before any network traffic: https only, no user name or password.
 *
 * @example checkHttpsUrl("https://cdn.example.com/a.png") // { ok: true, host: "cdn.example.com", ... }
 */
export function checkHttpsUrl(input: string | URL): CheckedHttpsUrl | IntakeFailure {
  let url: URL;
  try {
    url = typeof input === "string" ? new URL(input) : input;
  } catch {
    return intakeFailure("unsupported-source", "the image URL could not be parsed");
  }
  if (url.protocol !== "https:") {
    return intakeFailure("unsupported-source", `only https:// image URLs and data:image/ URIs are accepted, not ${url.protocol.slice(0, 20)} URLs`);
  }
  if (url.username !== "" || url.password !== "") {
    return intakeFailure("unsupported-source", "image URLs must not carry a user name or password");
  }
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  if (host === "") return intakeFailure("unsupported-source", "the image URL has no host");
  return { ok: true, url, host, ipVersion: isIP(host) as 0 | 4 | 6, port: url.port };
}
