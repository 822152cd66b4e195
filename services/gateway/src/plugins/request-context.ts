import fp from "fastify-plugin";
import { declaredBody } from "../http/declared-body.ts";

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
  async (app, opts: { now: () => number; drainLimitBytes: number }) => {
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
    // An answer given before the request's body arrived (a 404, 401, 413 or 429 decided from
    // the headers) leaves the rest unread. Node then reads and discards it, buffering
    // nothing, so the caller can read the answer (closing at once would reset the connection
    // under it) and the connection can carry the next request; past `drainLimitBytes`, a
    // body of no declared end is not worth reading and the connection is closed.
    app.addHook("onResponse", async (request) => {
      const raw = request.raw;
      if (raw.complete || declaredBody(request.headers) === 0) return;
      let drained = 0;
      raw.on("data", (chunk: Buffer) => {
        drained += chunk.length;
        // Destroying the request destroys its socket (and works on an injected request too).
        if (drained > opts.drainLimitBytes) raw.destroy();
      });
    });
  },
  { name: "request-context" },
);
