import fp from "fastify-plugin";

declare module "fastify" {
  interface FastifyRequest {
    /** Epoch ms when the request arrived: the rank time limit counts from here. */
    receivedAt: number;
  }
}

/**
 * Every response carries `X-Request-Id`, errors included, so a caller can quote it. The id is
 * ours (a uuid per request); a client-sent id is never trusted as the rank's request_id.
 *
 * Once the server is closing, responses also say `Connection: close`: a keep-alive connection
 * whose request was in flight at shutdown would otherwise stay open and hold the close up.
 */
export default fp(
  async (app, opts: { now: () => number }) => {
    let closing = false;
    app.decorateRequest("receivedAt", 0);
    app.addHook("onRequest", async (request, reply) => {
      request.receivedAt = opts.now();
      // HTTP/1.1 requires Host (RFC 9112); Node's own refusal has no body, ours has a sentence.
      if (request.raw.httpVersion === "1.1" && !request.headers.host) {
        return reply.code(400).header("connection", "close").send({ error: "The request has no Host header, which HTTP/1.1 requires." });
      }
    });
    app.addHook("preClose", async () => {
      closing = true;
    });
    app.addHook("onSend", async (request, reply) => {
      // A replayed or fetched request keeps the id of the request it answers for.
      if (!reply.hasHeader("X-Request-Id")) reply.header("X-Request-Id", request.id);
      if (closing) reply.header("Connection", "close");
    });
  },
  { name: "request-context" },
);
