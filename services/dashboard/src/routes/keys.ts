import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { issueKey } from "@adrank/api-keys";
import { KeyLimitReachedError } from "@adrank/db/repositories";
import type { Repos } from "../deps.ts";
import { requireUser } from "../require-user.ts";

const NewKey = z.object({ name: z.string().trim().min(1).max(80) });

/** The console's answer when the account holds its most active keys (409): what the limit is and what to do. */
export const keyLimitSentence = (limit: number) => `This account already has ${limit} active API keys, the most it may hold. Revoke a key you no longer use, then create the new one.`;

/** API keys of the signed-in account: the raw key leaves the server once, in the create answer. */
export async function keyRoutes(app: FastifyInstance, { repos }: { repos: Repos }) {
  app.addHook("preHandler", requireUser);

  app.get("/keys", async (request) => {
    const [keys, playgroundKeyId] = await Promise.all([repos.apiKeys.listForAccount(request.user!.accountId), repos.playgroundKeys.keyIdForAccount(request.user!.accountId)]);
    // `playground` marks the key the console itself uses, so the list can explain it.
    return { keys: keys.map((k) => ({ id: k.id, name: k.name, prefix: k.prefix, lastFour: k.lastFour, createdAt: k.createdAt, revokedAt: k.revokedAt, lastUsedAt: k.lastUsedAt, playground: k.id === playgroundKeyId })) };
  });

  app.post("/keys", async (request, reply) => {
    const parsed = NewKey.safeParse(request.body);
    if (!parsed.success) return reply.code(422).send({ error: "Give the key a name of 1 to 80 characters.", field: "name" });
    const issued = issueKey(randomBytes(41));
    let id: string;
    try {
      ({ id } = await repos.apiKeys.create({ accountId: request.user!.accountId, name: parsed.data.name, lookup: issued.lookup, hash: issued.hash, lastFour: issued.lastFour }));
    } catch (err) {
      if (err instanceof KeyLimitReachedError) return reply.code(409).send({ error: keyLimitSentence(err.limit) });
      throw err;
    }
    request.log.info({ keyId: id }, "API key created in the console");
    return reply.code(201).send({ id, name: parsed.data.name, key: issued.raw, prefix: issued.lookup, lastFour: issued.lastFour });
  });

  app.post<{ Params: { id: string } }>("/keys/:id/revoke", async (request, reply) => {
    const revoked = await repos.apiKeys.revokeOwned(request.user!.accountId, request.params.id, new Date());
    if (!revoked) return reply.code(404).send({ error: "No such key." });
    request.log.info({ keyId: request.params.id }, "API key revoked in the console");
    return { id: request.params.id, revoked: true };
  });
}
