import type { FastifyReply, FastifyRequest } from "fastify";
import type { SessionUser } from "@adrank/db/repositories";

declare module "fastify" {
  interface FastifyRequest {
    /** Set by app.ts's onRequest hook from the session cookie; null when nobody is signed in. */
    user: SessionUser | null;
  }
}

/** Answers 401 unless a session is signed in. */
export async function requireUser(request: FastifyRequest, reply: FastifyReply) {
  if (!request.user) return reply.code(401).send({ error: "Sign in to continue." });
}
