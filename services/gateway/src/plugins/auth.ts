import fp from "fastify-plugin";
import { addressKey } from "@adrank/runtime";
import { inSpan } from "@adrank/telemetry";
import type { FastifyReply, FastifyRequest } from "fastify";
import { createAuthenticator, type Caller } from "../auth/authenticator.ts";
import { createAuthFailureLimiter, type AuthFailureLimits } from "../auth/failure-limiter.ts";
import { createLastUsedRecorder } from "../auth/last-used.ts";
import { BodyTooLargeError, formatBytes } from "../errors/api-errors.ts";
import { declaredBody } from "../http/declared-body.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** onRequest hook of every authenticated route: sets `request.caller` or answers 401 (429 past the failure limit). */
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
  interface FastifyRequest {
    caller: Caller | null;
  }
}

export interface AuthOptions {
  keyCacheTtlMs: number;
  now: () => number;
  /** Failed key checks per client address (AUTH_FAILURE_*). */
  failures: AuthFailureLimits;
  /** The most a request without a caller may send (UNAUTHENTICATED_BODY_LIMIT_BYTES). */
  unauthenticatedBodyLimitBytes: number;
}

/**
 * Bearer API keys. Runs as an onRequest hook, before the body is read, so an anonymous
 * caller cannot make us parse 25 MiB; the client address (request.ip, through
 * GATEWAY_TRUST_PROXY hops) counts failed keys. A request that reaches its body without a
 * caller is on a route that takes no key: it may carry only a small body, judged from its
 * headers before a byte of it is read.
 */
export default fp(
  async (app, opts: AuthOptions) => {
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
      failures: createAuthFailureLimiter({ ...opts.failures, now: opts.now }),
    });
    app.decorateRequest("caller", null);
    app.decorate("authenticate", async (request: FastifyRequest) => {
      // A span of its own: the key check is one hop of a request's time (BENCHMARKS.md).
      request.caller = await inSpan("authenticate", {}, () => authenticator.authenticate(request.headers.authorization, addressKey(request.ip)));
      request.log = request.log.child({ accountId: request.caller.accountId, keyId: request.caller.keyId });
    });
    app.addHook("preParsing", async (request) => {
      if (request.caller) return;
      const declared = declaredBody(request.headers);
      if (declared === "chunked" || declared > opts.unauthenticatedBodyLimitBytes) {
        throw new BodyTooLargeError(`A request without an API key may send a body of at most ${formatBytes(opts.unauthenticatedBodyLimitBytes)}, with its Content-Length.`);
      }
    });
  },
  { name: "auth", dependencies: ["db"] },
);
