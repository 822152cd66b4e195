import { cleartextKeyProblem, createClient, type AdRankClient, type RetryEvent } from "@adrank/sdk";
import { UsageError } from "./usage-error.ts";

export const DEFAULT_BASE_URL = "http://127.0.0.1:8080";

export interface Settings {
  apiKey: string;
  baseUrl: string;
  /** ADRANK_ALLOW_INSECURE_HTTP=true: the user chose to send the key over http:// to another host. */
  allowInsecureHttp: boolean;
}

/** The address calls go to, as the user set it (for messages; it may not be a valid URL). */
export const baseUrlOf = (env: NodeJS.ProcessEnv): string => env.ADRANK_BASE_URL?.trim() || DEFAULT_BASE_URL;

/**
 * ADRANK_API_KEY (required) and ADRANK_BASE_URL from the environment, checked. Commands call
 * it before they print or read anything, so a missing key is the first and only line.
 */
export function settingsFromEnv(env: NodeJS.ProcessEnv): Settings {
  const apiKey = env.ADRANK_API_KEY?.trim();
  if (!apiKey) throw new UsageError("set ADRANK_API_KEY to your API key");
  const baseUrl = baseUrlOf(env);
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(`ADRANK_BASE_URL is not a URL: ${baseUrl}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`ADRANK_BASE_URL must be an http:// or https:// address, not ${baseUrl}`);
  const allowInsecureHttp = /^(true|1)$/i.test(env.ADRANK_ALLOW_INSECURE_HTTP?.trim() ?? "");
  const cleartext = cleartextKeyProblem(url, allowInsecureHttp);
  if (cleartext) throw new UsageError(`${cleartext}; set ADRANK_ALLOW_INSECURE_HTTP=true only for a network you trust`);
  return { apiKey, baseUrl, allowInsecureHttp };
}

/** The API client for checked settings; `onRetry` hears of each wait before a retry. */
export const clientOf = (settings: Settings, onRetry?: (e: RetryEvent) => void): AdRankClient => createClient({ ...settings, ...(onRetry ? { onRetry } : {}) });

/** The client straight from the environment, for commands that show no progress. */
export const clientFromEnv = (env: NodeJS.ProcessEnv, onRetry?: (e: RetryEvent) => void): AdRankClient => clientOf(settingsFromEnv(env), onRetry);
