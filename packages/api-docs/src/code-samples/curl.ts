import type { CodeSample } from "./code-sample.ts";
import { shellQuote } from "./shell-quote.ts";

/** Where the body of a here-document ends: a line no JSON value prints on its own. */
const HERE_DOCUMENT_END = "EOF";

/**
 * JSON as the body of an unquoted here-document (`<<EOF`), which expands `$NAME`: each string
 * of `variables` (a value of the body) becomes `"$NAME"`, and everything else the shell would
 * read ($, a backquote, a backslash) is escaped, so the shell passes the rest on unchanged.
 */
function hereDocumentBody(json: string, variables: ReadonlyMap<string, string>): string {
  let text = json.replace(/[\\$`]/g, (c) => `\\${c}`);
  for (const [value, variable] of variables) {
    if (!/^\$[A-Z_][A-Z0-9_]*$/.test(variable)) throw new Error(`${variable} is no shell variable`);
    const quoted = JSON.stringify(value).replace(/[\\$`]/g, (c) => `\\${c}`);
    if (!text.includes(quoted)) throw new Error(`the body has no value ${quoted} for ${variable}`);
    text = text.replaceAll(quoted, `"${variable}"`);
  }
  if (text.split("\n").includes(HERE_DOCUMENT_END)) throw new Error(`the body has a line "${HERE_DOCUMENT_END}"`);
  return text;
}

/**
 * The operation as a curl command against $ADRANK_BASE_URL with $ADRANK_API_KEY. The body
 * is the operation's first request example, byte for byte as JSON (a test holds them equal).
 * With `variables` (a value of the body, the shell variable that stands for it: e.g. a
 * request id as `$REQUEST_ID`), the body is a here-document in which those variables expand.
 */
export function curlSample(method: "GET" | "POST", path: string, body?: unknown, variables: ReadonlyMap<string, string> = new Map()): CodeSample {
  const lines = [`curl ${method === "GET" ? "" : `-X ${method} `}"$ADRANK_BASE_URL${path}"`, `-H "Authorization: Bearer $ADRANK_API_KEY"`];
  if (body === undefined) return { lang: "shell", label: "curl", source: lines.join(" \\\n  ") };
  const json = JSON.stringify(body, null, 2);
  lines.push(`-H "Content-Type: application/json"`);
  if (variables.size === 0) return { lang: "shell", label: "curl", source: [...lines, `--data-raw ${shellQuote(json)}`].join(" \\\n  ") };
  const command = [...lines, `--data-binary @- <<${HERE_DOCUMENT_END}`].join(" \\\n  ");
  return { lang: "shell", label: "curl", source: `${command}\n${hereDocumentBody(json, variables)}\n${HERE_DOCUMENT_END}` };
}
