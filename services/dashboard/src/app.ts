import { existsSync } from "node:fs";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { proxyTrust } from "@adrank/runtime";
import fastifyStatic from "@fastify/static";
import { bodyTooLarge, DEFAULT_BODY_LIMIT_BYTES } from "./body-limits.ts";
import { addressKey } from "./client-address.ts";
import { isMalformedCookie, readCookie, SESSION_COOKIE, sessionCookie } from "./cookies.ts";
import { csrfProblem } from "./csrf.ts";
import { createRepos, type DashboardDeps } from "./deps.ts";
import { tryAgainIn } from "./fixed-window.ts";
// Also declares request.user, which the onRequest hook below sets.
import { needsUser } from "./require-user.ts";
import { createUnauthenticatedLimiter, DEFAULT_UNAUTHENTICATED_LIMITS } from "./unauthenticated-limiter.ts";
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
  const loggerInstance: FastifyBaseLogger = deps.logger;
  // A hop count as a function (see proxyTrust): every caller behind the ingress would otherwise share one address.
  const trustProxy = proxyTrust(deps.trustProxyHops ?? 0);
  // Small bodies everywhere; the playground's routes allow more for themselves (routes/playground.ts).
  const app = Fastify({ loggerInstance, bodyLimit: deps.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES, trustProxy, disableRequestLogging: false });
  const r = createRepos(deps);
  const unauthenticated = createUnauthenticatedLimiter(deps.unauthenticatedLimits ?? DEFAULT_UNAUTHENTICATED_LIMITS);
  app.decorateRequest("user", null);

  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-content-type-options", "nosniff");
    reply.header("referrer-policy", "same-origin");
    reply.header("x-frame-options", "DENY");
    // Only our own bundle runs; images may be data URIs (thumbnails) or https (audience of the playground).
    reply.header("content-security-policy", "default-src 'self'; img-src 'self' data: blob: https:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'");
    const api = request.url.startsWith("/console/api/");
    if (api) reply.header("cache-control", "no-store");
    // Every refusal here comes before the body is read (onRequest runs before fastify parses
    // it); Node then drains the unread bytes without keeping them.
    const refuse = (status: number, body: object) => reply.code(status).send(body);
    // No route, no body: only a GET of a page address gets the front end (the not-found handler).
    if (request.is404 && (api || (request.method !== "GET" && request.method !== "HEAD"))) return refuse(404, { error: "Not found." });
    if (!api) return;
    const signInNeeded = needsUser(request);
    const address = addressKey(request.ip);
    if (signInNeeded) {
      // Past its share of 401s, an address is refused before its cookie costs a query.
      const wait = unauthenticated.retryAfter(address);
      if (wait !== null) {
        reply.header("retry-after", String(wait));
        return refuse(429, { error: `Too many requests without a valid sign-in from your network. ${tryAgainIn(wait)}`, retryAfter: wait });
      }
    }
    let token: string | null;
    try {
      token = readCookie(request.headers.cookie, SESSION_COOKIE);
    } catch (err) {
      if (!isMalformedCookie(err)) throw err;
      if (signInNeeded) unauthenticated.record(address);
      // Clearing the broken cookie lets the browser's next request through.
      reply.header("set-cookie", sessionCookie("", { maxAgeS: 0, secure: deps.secureCookies }));
      return refuse(400, { error: "Your session cookie could not be read; it has been cleared. Sign in again." });
    }
    request.user = token ? await r.sessions.find(token) : null;
    if (signInNeeded && !request.user) {
      unauthenticated.record(address);
      return refuse(401, { error: "Sign in to continue." });
    }
    const problem = csrfProblem({ method: request.method, sessionToken: request.user?.csrfToken ?? null, headerToken: request.headers["x-csrf-token"] as string | undefined, origin: request.headers.origin, host: request.headers.host });
    if (problem) return refuse(403, { error: problem });
    // A declared length over the route's limit is refused here too, like every refusal above:
    // refused by the body parser instead, the connection could close while the client was still
    // sending, and under load the client saw a reset rather than the 413.
    const limit = request.routeOptions.bodyLimit ?? deps.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
    if (Number(request.headers["content-length"]) > limit) return refuse(413, { error: bodyTooLarge(limit) });
  });

  app.setErrorHandler((err: { statusCode?: number; message: string }, request, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) request.log.error({ err }, "console request failed");
    reply.code(status).send({ error: status === 500 ? "Something went wrong on our side; try again." : status === 413 ? bodyTooLarge(request.routeOptions.bodyLimit ?? deps.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES) : "The request could not be read." });
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
