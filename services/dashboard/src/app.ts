import { existsSync } from "node:fs";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import fastifyStatic from "@fastify/static";
import { isMalformedCookie, readCookie, SESSION_COOKIE, sessionCookie } from "./cookies.ts";
import { csrfProblem } from "./csrf.ts";
import { createRepos, type DashboardDeps } from "./deps.ts";
// Declares request.user, which the onRequest hook below sets.
import "./require-user.ts";
import { audienceRoutes } from "./routes/audiences.ts";
import { authRoutes } from "./routes/auth.ts";
import { calibrationRoutes } from "./routes/calibration.ts";
import { keyRoutes } from "./routes/keys.ts";
import { playgroundRoutes } from "./routes/playground.ts";
import { requestRoutes } from "./routes/requests.ts";
import { usageRoutes } from "./routes/usage.ts";
import { webhookRoutes } from "./routes/webhooks.ts";

// The package's entry point: callers of buildDashboard name its argument's type from here.
export type { DashboardDeps } from "./deps.ts";

/**
 * The console: a JSON API under /console/api for the single-page front end, served from the
 * same origin so cookies stay SameSite=Strict and no CORS is needed.
 */
export async function buildDashboard(deps: DashboardDeps): Promise<FastifyInstance> {
  // Playground bodies carry images as data URIs: allow what the gateway allows.
  const loggerInstance: FastifyBaseLogger = deps.logger;
  // A hop count as a function: fastify 5 reads a bare number as "trust no proxy" (it cannot
  // check the peer), which would put every caller behind the ingress on one address.
  const hops = deps.trustProxyHops ?? 0;
  const trustProxy = hops > 0 ? (_address: string, hop: number) => hop < hops : false;
  const app = Fastify({ loggerInstance, bodyLimit: 25 * 1024 * 1024, trustProxy, disableRequestLogging: false });
  const r = createRepos(deps);
  app.decorateRequest("user", null);

  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-content-type-options", "nosniff");
    reply.header("referrer-policy", "same-origin");
    reply.header("x-frame-options", "DENY");
    // Only our own bundle runs; images may be data URIs (thumbnails) or https (audience of the playground).
    reply.header("content-security-policy", "default-src 'self'; img-src 'self' data: blob: https:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'");
    if (!request.url.startsWith("/console/api/")) return;
    reply.header("cache-control", "no-store");
    let token: string | null;
    try {
      token = readCookie(request.headers.cookie, SESSION_COOKIE);
    } catch (err) {
      if (!isMalformedCookie(err)) throw err;
      // Clearing the broken cookie lets the browser's next request through.
      reply.header("set-cookie", sessionCookie("", { maxAgeS: 0, secure: deps.secureCookies }));
      return reply.code(400).send({ error: "Your session cookie could not be read; it has been cleared. Sign in again." });
    }
    request.user = token ? await r.sessions.find(token) : null;
    const problem = csrfProblem({ method: request.method, sessionToken: request.user?.csrfToken ?? null, headerToken: request.headers["x-csrf-token"] as string | undefined, origin: request.headers.origin, host: request.headers.host });
    if (problem) return reply.code(403).send({ error: problem });
  });

  app.setErrorHandler((err: { statusCode?: number; message: string }, request, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) request.log.error({ err }, "console request failed");
    reply.code(status).send({ error: status === 500 ? "Something went wrong on our side; try again." : status === 413 ? "That upload is too large (25 MiB at most)." : "The request could not be read." });
  });

  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (_req, reply) => {
    const problem = (await deps.isReady?.()) ?? null;
    return problem ? reply.code(503).send({ status: "not ready", reason: problem }) : { status: "ready" };
  });

  // The pages link the API reference as /docs, which the ingress sends to the gateway; a
  // console on its own port (npm start, compose) sends the browser there instead.
  const docsUrl = deps.apiDocsUrl ?? new URL("/docs", deps.gatewayUrl).href;
  app.get("/docs", async (_request, reply) => reply.redirect(docsUrl, 302));

  await app.register(authRoutes, { prefix: "/console/api", deps, repos: r });
  await app.register(keyRoutes, { prefix: "/console/api", repos: r });
  await app.register(audienceRoutes, { prefix: "/console/api", repos: r });
  await app.register(usageRoutes, { prefix: "/console/api", repos: r });
  await app.register(playgroundRoutes, { prefix: "/console/api", deps, repos: r });
  await app.register(requestRoutes, { prefix: "/console/api", repos: r });
  await app.register(webhookRoutes, { prefix: "/console/api", repos: r });
  await app.register(calibrationRoutes, { prefix: "/console/api", repos: r });

  if (deps.webRoot && existsSync(deps.webRoot)) {
    await app.register(fastifyStatic, { root: deps.webRoot, prefix: "/", index: ["index.html"], wildcard: false });
    app.setNotFoundHandler((request, reply) => {
      if (request.method === "GET" && !request.url.startsWith("/console/api/")) return reply.type("text/html").sendFile("index.html");
      return reply.code(404).send({ error: "Not found." });
    });
  }
  return app;
}
