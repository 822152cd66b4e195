import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { issueKey } from "@adrank/api-keys";
import type { DashboardDeps, Repos } from "../deps.ts";
import { requireUser } from "../require-user.ts";

/**
 * The playground calls the real public API with the account's own "console playground" key:
 * created on first use, stored encrypted, never sent to the browser. Its calls are billed and
 * rate-limited like any other key's, and it shows in the key list so it can be revoked.
 */
export async function playgroundRoutes(app: FastifyInstance, { deps, repos }: { deps: DashboardDeps; repos: Repos }) {
  async function playgroundKey(accountId: string): Promise<string> {
    const stored = await repos.playgroundKeys.findForAccount(accountId);
    const opened = stored && !stored.revoked ? deps.box.open(stored.encryptedKey) : null;
    if (opened) return opened;
    // None yet, revoked by the user, or sealed under an older secret: issue a fresh one.
    const issued = issueKey(randomBytes(41));
    const { id } = await repos.apiKeys.create({ accountId, name: "console playground", lookup: issued.lookup, hash: issued.hash, lastFour: issued.lastFour });
    await repos.playgroundKeys.save(accountId, id, deps.box.seal(issued.raw));
    return issued.raw;
  }

  for (const operation of ["rank", "pairwise"] as const) {
    app.post(`/playground/${operation}`, { preHandler: requireUser }, async (request, reply) => {
      const key = await playgroundKey(request.user!.accountId);
      let res: Response;
      try {
        res = await fetch(new URL(`/api/v1/${operation}`, deps.gatewayUrl), {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify(request.body),
          signal: AbortSignal.timeout(130_000),
        });
      } catch (err) {
        request.log.error({ err }, "the gateway could not be reached");
        return reply.code(502).send({ error: "The ranking service could not be reached; try again in a moment." });
      }
      // The API's own answer, status and all: the playground shows what a caller would get.
      const body = await res.text();
      for (const h of ["x-request-id", "x-ratelimit-remaining", "retry-after"]) {
        const v = res.headers.get(h);
        if (v !== null) reply.header(h, v);
      }
      return reply.code(res.status).type(res.headers.get("content-type") ?? "application/json").send(body);
    });
  }
}
