import type { FastifyInstance } from "fastify";
import { ASSET_TYPES, CreateAudienceRequest, DEMOGRAPHIC_VALUES, GOALS, LIMITS, parseWith } from "@adrank/contracts";
import type { SavedAudienceRecord } from "@adrank/db/repositories";
import type { Repos } from "../deps.ts";
import { PUBLIC_ROUTE, requireUser } from "../require-user.ts";

const view = (a: SavedAudienceRecord) => ({ id: a.id, name: a.name, description: a.description, demographics: a.demographics, createdAt: a.createdAt, updatedAt: a.updatedAt });

/** Saved audiences of the signed-in account, validated by the same schema as the public API. */
export async function audienceRoutes(app: FastifyInstance, { repos }: { repos: Repos }) {
  // The choices the forms offer: the contract's own lists, never a copy.
  app.get("/vocabulary", PUBLIC_ROUTE, async () => ({ goals: GOALS, assetTypes: ASSET_TYPES, demographics: DEMOGRAPHIC_VALUES, maxImagesPerRank: LIMITS.assetsMax }));

  app.register(async (owned) => {
    owned.addHook("preHandler", requireUser);
    owned.get("/audiences", async (request) => ({ audiences: (await repos.audiences.listOwned(request.user!.accountId)).map(view) }));

    owned.post("/audiences", async (request, reply) => {
      const parsed = parseWith(CreateAudienceRequest, request.body);
      if (!parsed.ok) return reply.code(422).send(parsed.error.body);
      return reply.code(201).send(view(await repos.audiences.create(request.user!.accountId, parsed.value)));
    });

    owned.put<{ Params: { id: string } }>("/audiences/:id", async (request, reply) => {
      const parsed = parseWith(CreateAudienceRequest, request.body);
      if (!parsed.ok) return reply.code(422).send(parsed.error.body);
      const updated = await repos.audiences.updateOwned(request.user!.accountId, request.params.id, parsed.value);
      return updated ? view(updated) : reply.code(404).send({ error: "No such audience." });
    });

    owned.delete<{ Params: { id: string } }>("/audiences/:id", async (request, reply) => {
      const deleted = await repos.audiences.deleteOwned(request.user!.accountId, request.params.id);
      return deleted ? reply.code(204).send() : reply.code(404).send({ error: "No such audience." });
    });
  });
}
