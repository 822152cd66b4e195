import type { FastifyInstance } from "fastify";
import { CreateAudienceRequest, type SavedAudience } from "@adrank/contracts";
import { parseJsonBody } from "../../http/parse-body.ts";
import type { SavedAudienceRecord } from "@adrank/db/repositories";

/** The public shape of a saved audience. */
function toSavedAudience(r: SavedAudienceRecord): SavedAudience {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    demographics: r.demographics,
    created_at: r.createdAt.toISOString(),
  };
}

/** GET and POST /api/v1/audiences (operations listAudiences, createAudience): the caller's account only. */
export default async function audiencesRoutes(app: FastifyInstance) {
  app.addHook("onRequest", app.authenticate);

  app.get("/", async (request) => {
    const records = await app.repos.audiences.listOwned(request.caller!.accountId);
    return { audiences: records.map(toSavedAudience) };
  });

  app.post("/", async (request, reply) => {
    const body = parseJsonBody(CreateAudienceRequest, request.body);
    const record = await app.repos.audiences.create(request.caller!.accountId, body);
    return reply.code(201).send(toSavedAudience(record));
  });
}
