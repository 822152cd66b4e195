import { createServer, type Server } from "node:http";

export interface HealthChecks {
  /** null when ready, else the reason it is not (shown in the 503 body). */
  notReadyReason(): string | null;
  /** Extra routes, e.g. `/metrics`: path -> [content type, body]. */
  routes?: Record<string, () => Promise<[string, string]> | [string, string]>;
}

/**
 * `/healthz` (the process is alive) and `/readyz` (it can do its work) for a worker service
 * that has no HTTP API of its own; orchestrators probe these. Port 0 serves nothing.
 */
export function serveHealth(port: number, host: string, checks: HealthChecks): Server | null {
  if (port <= 0) return null;
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    if (path === "/healthz") {
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      return;
    }
    if (path === "/readyz") {
      const reason = checks.notReadyReason();
      res.writeHead(reason === null ? 200 : 503, { "content-type": "text/plain" }).end(reason ?? "ready");
      return;
    }
    const route = checks.routes?.[path];
    if (!route) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    Promise.resolve(route())
      .then(([type, body]) => res.writeHead(200, { "content-type": type }).end(body))
      .catch(() => res.writeHead(500, { "content-type": "text/plain" }).end("error"));
  });
  server.listen(port, host);
  return server;
}
