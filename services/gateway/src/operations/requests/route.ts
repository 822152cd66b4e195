import type { FastifyInstance } from "fastify";
import { requestStatusOf } from "../../lifecycle/request-status.ts";
import { sendStored } from "../../lifecycle/send-stored.ts";
import { RequestNotFoundError } from "../../errors/api-errors.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * GET /api/v1/requests/{request_id} (operation getRequest): a succeeded request's response as
 * it was answered, byte for byte; a running one's status (202); a failed one's status and
 * reason. Another account's id is as unknown as a made-up one.
 */
export default async function requestsRoutes(app: FastifyInstance) {
  app.addHook("onRequest", app.authenticate);

  app.get<{ Params: { requestId: string } }>("/:requestId", async (request, reply) => {
    const { requestId } = request.params;
    const view = UUID.test(requestId) ? await app.repos.requests.find(requestId, request.caller!.accountId) : null;
    if (!view) throw new RequestNotFoundError(requestId);
    if (view.state === "succeeded" && view.result) return sendStored(reply, view.result, requestId, { replayed: false });
    const status = requestStatusOf(view);
    if (view.state === "running") reply.code(202).header("Retry-After", "2");
    return reply.header("X-Request-Id", requestId).send(status);
  });
}
