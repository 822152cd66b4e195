import type { FastifyInstance, FastifyReply } from "fastify";
import { PREVIOUS_SECRET_GRACE_HOURS, type DeliverySummary } from "@adrank/db/repositories";
import type { Repos } from "../deps.ts";
import { requireUser } from "../require-user.ts";

/** The newest deliveries the page lists, each with all of its attempts. */
export const DELIVERIES_SHOWN = 50;

const deliveryView = (d: DeliverySummary) => ({
  id: d.id,
  requestId: d.requestId,
  url: d.url,
  state: d.state,
  attempts: d.attempts,
  nextAttemptAt: d.nextAttemptAt,
  lastStatus: d.lastStatus,
  lastError: d.lastError,
  createdAt: d.createdAt,
  deliveredAt: d.deliveredAt,
  history: d.history,
});

/**
 * The account's webhook signing secret and its deliveries. The secret leaves the server once,
 * in the answer that made it; afterwards only when it was made and rotated is shown. It is
 * stored sealed under ADRANK_SECRETS_KEY (repos.webhooks holds the box), which the gateway
 * shares to sign deliveries with it.
 */
export async function webhookRoutes(app: FastifyInstance, { repos }: { repos: Repos }) {
  app.addHook("preHandler", requireUser);

  const info = async (accountId: string) => repos.webhooks.secretInfo(accountId);
  // Set here as well as for every API answer: a cached copy of this one would be the secret.
  const sendSecret = async (reply: FastifyReply, accountId: string, secret: string, status: number) =>
    reply.code(status).header("cache-control", "no-store").header("pragma", "no-cache").send({ secret, ...(await info(accountId)), graceHours: PREVIOUS_SECRET_GRACE_HOURS });

  app.get("/webhooks/secret", async (request) => ({ secret: await info(request.user!.accountId), graceHours: PREVIOUS_SECRET_GRACE_HOURS }));

  // Create and rotate are separate, so a second "Create" (another tab, a double click) cannot
  // silently replace a secret a receiver already holds.
  app.post("/webhooks/secret", async (request, reply) => {
    const accountId = request.user!.accountId;
    if (await repos.webhooks.hasSecret(accountId)) return reply.code(409).send({ error: "This account already has a signing secret; rotate it to get a new one." });
    const secret = await repos.webhooks.rotateSecret(accountId);
    request.log.info("webhook signing secret created in the console");
    return sendSecret(reply, accountId, secret, 201);
  });

  app.post("/webhooks/secret/rotate", async (request, reply) => {
    const accountId = request.user!.accountId;
    if (!(await repos.webhooks.hasSecret(accountId))) return reply.code(404).send({ error: "There is no signing secret to rotate yet; create one first." });
    const secret = await repos.webhooks.rotateSecret(accountId);
    request.log.info("webhook signing secret rotated in the console");
    return sendSecret(reply, accountId, secret, 200);
  });

  app.get("/webhooks/deliveries", async (request) => ({ deliveries: (await repos.webhooks.listForAccount(request.user!.accountId, { limit: DELIVERIES_SHOWN })).map(deliveryView) }));
}
