import fp from "fastify-plugin";
import type { FastifyReply, FastifyRequest } from "fastify";
import { toHttpFailure } from "../errors/to-http.ts";

/**
 * The one error handler: typed errors and fastify's own refusals become the spec's statuses
 * and `{error, field?}` bodies (see to-http.ts). 5xx are logged with their cause and
 * answered with a generic body; 4xx are the caller's and logged at info.
 */
export default fp(
  async (app, opts: { bodyLimitBytes: number }) => {
    app.setErrorHandler(async (err, request, reply) => {
      // A route may read less than the server-wide limit (outcomes: 1 MiB); a 413 names the one that applied.
      const failure = toHttpFailure(err, request.id, { bodyLimitBytes: request.routeOptions.bodyLimit ?? opts.bodyLimitBytes });
      if (failure.severity === "error") request.log.error({ err }, "request failed");
      else request.log.info({ status: failure.status, error: failure.body.error }, "request refused");
      return reply.code(failure.status).headers(failure.headers).send(failure.body);
    });
    const notFound = (request: FastifyRequest, reply: FastifyReply) => reply.code(404).send({ error: `No route for ${request.method} ${request.url.split("?")[0]}.` });
    // An unknown route is answered at onRequest, before a byte of its body is read: fastify
    // parses a body before its not-found handler runs (25 MiB of `[` took 10 s and 1.2 GiB
    // for a 404). What is left of the body is read and discarded, never kept (request-context.ts).
    app.addHook("onRequest", async (request, reply) => {
      if (request.is404) return notFound(request, reply);
    });
    app.setNotFoundHandler(async (request, reply) => notFound(request, reply));
  },
  { name: "error-handler" },
);
