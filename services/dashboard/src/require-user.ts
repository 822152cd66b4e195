import type { FastifyReply, FastifyRequest } from "fastify";
import type { SessionUser } from "@adrank/db/repositories";

declare module "fastify" {
  interface FastifyRequest {
    /** Set by app.ts's onRequest hook from the session cookie; null when nobody is signed in. */
    user: SessionUser | null;
  }
  interface FastifyContextConfig {
    /** Answers people who are not signed in (sign-in, sign-up, …). Every other /console/api route needs a session. */
    public?: boolean;
  }
}

/** The route option of a console API route that answers without a session. */
export const PUBLIC_ROUTE = { config: { public: true } } as const;

/**
 * Whether a console API request needs a signed-in user. Decided in onRequest, before the body
 * is read: a route is private unless it says otherwise, so a new route cannot forget it.
 */
export const needsUser = (request: FastifyRequest): boolean => request.url.startsWith("/console/api/") && !request.is404 && request.routeOptions.config.public !== true;

/** Answers 401 unless a session is signed in: a second line behind app.ts's onRequest hook, which answers before the body is read. */
export async function requireUser(request: FastifyRequest, reply: FastifyReply) {
  if (!request.user) return reply.code(401).send({ error: "Sign in to continue." });
}
