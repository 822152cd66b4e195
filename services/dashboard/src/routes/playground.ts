import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { issueKey } from "@adrank/api-keys";
import { KeyLimitReachedError } from "@adrank/db/repositories";
import { DEFAULT_PLAYGROUND_BODY_LIMIT_BYTES } from "../body-limits.ts";
import type { DashboardDeps, Repos } from "../deps.ts";
import { requireUser } from "../require-user.ts";
import { keyLimitSentence } from "./keys.ts";

/** Each playground route and the public API operation it calls. */
const PROXIED_OPERATIONS = [
  ["rank", "/api/v1/rank"],
  ["pairwise", "/api/v1/pairwise"],
  ["rank-audiences", "/api/v1/rank/audiences"],
] as const;

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

  // The body goes to the gateway as it came, never parsed here: the gateway checks it once, its
  // JSON's depth included. Read only for a signed-in user (app.ts answers 401 before that).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
  const bodyLimit = deps.playgroundBodyLimitBytes ?? DEFAULT_PLAYGROUND_BODY_LIMIT_BYTES;

  for (const [route, apiPath] of PROXIED_OPERATIONS) {
    app.post(`/playground/${route}`, { preHandler: requireUser, bodyLimit }, async (request, reply) => {
      let key: string;
      try {
        key = await playgroundKey(request.user!.accountId);
      } catch (err) {
        // Its key counts towards the account's active keys like any other.
        if (err instanceof KeyLimitReachedError) return reply.code(409).send({ error: `The playground calls the API with a key of its own. ${keyLimitSentence(err.limit)}` });
        throw err;
      }
      let res: Response;
      try {
        res = await fetch(new URL(apiPath, deps.gatewayUrl), {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: request.body as Buffer | undefined,
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
