import type { FastifyReply } from "fastify";
import type { FinishedResponse } from "@adrank/db/repositories";

/**
 * Answers with a stored response exactly: its status, its headers and its very bytes (not
 * re-serialized), under the id of the request it belongs to. A replay says so.
 */
export function sendStored(reply: FastifyReply, response: FinishedResponse, requestId: string, opts: { replayed: boolean }): FastifyReply {
  reply.code(response.status).headers(response.headers).header("X-Request-Id", requestId).type("application/json; charset=utf-8");
  if (opts.replayed) reply.header("Idempotent-Replayed", "true");
  return reply.send(response.body);
}
