export interface HttpResult {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read fields of many shapes
  body: any;
  ms: number;
}

export interface CallOptions {
  key?: string;
  json?: unknown;
  /** Sent as is, with `contentType`. */
  raw?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** One HTTP call to the gateway; the body is parsed as JSON when it is JSON. */
export async function call(baseUrl: string, method: string, path: string, opts: CallOptions = {}): Promise<HttpResult> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key !== undefined) headers.authorization = `Bearer ${opts.key}`;
  let body: string | Buffer | undefined;
  if (opts.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(opts.json);
  } else if (opts.raw !== undefined) {
    if (opts.contentType) headers["content-type"] = opts.contentType;
    body = opts.raw;
  }
  const started = performance.now();
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body, ...(opts.signal ? { signal: opts.signal } : {}) });
  const text = await res.text();
  const ms = performance.now() - started;
  let parsed: unknown = text;
  if ((res.headers.get("content-type") ?? "").includes("json")) parsed = text === "" ? null : JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed, ms };
}

export const rank = (baseUrl: string, key: string | undefined, json: unknown, extra: Omit<CallOptions, "key" | "json"> = {}) =>
  call(baseUrl, "POST", "/api/v1/rank", { ...extra, json, ...(key === undefined ? {} : { key }) });
