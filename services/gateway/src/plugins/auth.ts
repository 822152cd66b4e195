import fp from "fastify-plugin";
import { inSpan } from "@adrank/telemetry";
import type { FastifyReply, FastifyRequest } from "fastify";
import { createAuthenticator, type Caller } from "../auth/authenticator.ts";
import { createLastUsedRecorder } from "../auth/last-used.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** onRequest hook of every authenticated route: sets `request.caller` or answers 401. */
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/**
 * Bearer API keys. Runs as an onRequest hook, before the body is read, so an anonymous
 * caller cannot make us parse 25 MiB.
 */
export default fp(
  async (app, opts: { keyCacheTtlMs: number; now: () => number }) => {
    const lastUsed = createLastUsedRecorder({
      write: (keyId, at) => app.repos.apiKeys.touchLastUsed(keyId, at),
      now: opts.now,
      onError: (err, keyId) => app.log.warn({ err, keyId }, "recording last use of a key failed"),
    });
    const authenticator = createAuthenticator({
      findByLookup: (lookup) => app.repos.apiKeys.findByLookup(lookup),
      ttlMs: opts.keyCacheTtlMs,
      now: opts.now,
      onAuthenticated: (caller) => lastUsed.record(caller.keyId),
    });
    app.decorateRequest("caller", null);
    app.decorate("authenticate", async (request: FastifyRequest) => {
      // A span of its own: the key check is one hop of a request's time (BENCHMARKS.md).
      request.caller = await inSpan("authenticate", {}, () => authenticator.authenticate(request.headers.authorization));
      request.log = request.log.child({ accountId: request.caller.accountId, keyId: request.caller.keyId });
    });
  },
  { name: "auth", dependencies: ["db"] },
);
