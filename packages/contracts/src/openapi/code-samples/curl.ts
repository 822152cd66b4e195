import type { CodeSample } from "./code-sample.ts";
import { shellQuote } from "./shell-quote.ts";

/**
 * The operation as a curl command against $ADRANK_BASE_URL with $ADRANK_API_KEY. The body
 * is the operation's first request example, byte for byte as JSON (a test holds them equal).
 */
export function curlSample(method: "GET" | "POST", path: string, body?: unknown): CodeSample {
  const lines = [`curl ${method === "GET" ? "" : `-X ${method} `}"$ADRANK_BASE_URL${path}"`, `-H "Authorization: Bearer $ADRANK_API_KEY"`];
  if (body !== undefined) lines.push(`-H "Content-Type: application/json"`, `--data-raw ${shellQuote(JSON.stringify(body, null, 2))}`);
  return { lang: "shell", label: "curl", source: lines.join(" \\\n  ") };
}
