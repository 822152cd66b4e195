import fp from "fastify-plugin";
import { webhooksRepository } from "@adrank/db/repositories";
import { createDurableRequests, type DurableConfig, type DurableRequests } from "../durable/durable-requests.ts";
import type { WorkLogger } from "../durable/work.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Stored results, Idempotency-Keys and asynchronous requests (durable/). */
    durable: DurableRequests;
  }
}

/**
 * Durable requests over the app's Postgres and ledger. The sweep for abandoned asynchronous
 * requests starts when the app is ready; closing waits for background runs in flight.
 */
export default fp(
  async (app, opts: { config: DurableConfig; checkWebhookUrl(url: string): Promise<string | null>; now: () => number }) => {
    const durable = createDurableRequests({
      repo: app.repos.requests,
      webhooks: webhooksRepository(app.db),
      checkWebhookUrl: opts.checkWebhookUrl,
      ledger: app.ledger,
      log: app.log as WorkLogger,
      config: opts.config,
      now: opts.now,
    });
    app.decorate("durable", durable);
    app.addHook("onReady", async () => durable.start());
    app.addHook("onClose", async () => durable.close());
  },
  { name: "durable", dependencies: ["db", "ledger"] },
);
