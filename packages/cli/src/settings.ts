import { createClient, type AdRankClient, type RetryEvent } from "@adrank/sdk";
import { UsageError } from "./usage-error.ts";

/** The client from the environment: ADRANK_API_KEY (required) and ADRANK_BASE_URL. */
export function clientFromEnv(env: NodeJS.ProcessEnv, onRetry?: (e: RetryEvent) => void): AdRankClient {
  const apiKey = env.ADRANK_API_KEY?.trim();
  if (!apiKey) throw new UsageError("set ADRANK_API_KEY to your API key");
  const baseUrl = env.ADRANK_BASE_URL?.trim() || "http://127.0.0.1:8080";
  try {
    new URL(baseUrl);
  } catch {
    throw new UsageError(`ADRANK_BASE_URL is not a URL: ${baseUrl}`);
  }
  return createClient({ apiKey, baseUrl, ...(onRetry ? { onRetry } : {}) });
}
