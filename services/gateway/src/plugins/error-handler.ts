import fp from "fastify-plugin";
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
    app.setNotFoundHandler(async (request, reply) => reply.code(404).send({ error: `No route for ${request.method} ${request.url.split("?")[0]}.` }));
  },
  { name: "error-handler" },
);
