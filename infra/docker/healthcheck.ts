// Container health check for images without curl or wget (node:24-slim has neither):
//   node infra/docker/healthcheck.ts http://127.0.0.1:8080/healthz
// Exits 0 when the URL answers 2xx in time, 1 otherwise, 2 on bad usage.
const url = process.argv[2];
const timeoutMs = Number(process.env.HEALTHCHECK_TIMEOUT_MS ?? 2000);

if (!url || !URL.canParse(url)) {
  console.error("usage: node healthcheck.ts <url>");
  process.exit(2);
}

try {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) console.error(`${url} answered ${res.status}`);
  process.exit(res.ok ? 0 : 1);
} catch (err) {
  console.error(`${url} unreachable: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
