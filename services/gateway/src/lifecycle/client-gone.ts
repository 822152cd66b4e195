import type { FastifyReply } from "fastify";

/**
 * Fires when the client disconnects before its response was written: the rank stops waiting
 * for results and settles what already succeeded.
 */
export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.once("close", () => {
    if (!reply.raw.writableFinished) gone.abort(new Error("client disconnected"));
  });
  return gone.signal;
}
