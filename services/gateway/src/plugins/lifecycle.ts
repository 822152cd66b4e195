import fp from "fastify-plugin";
import { webhooksRepository } from "@adrank/db/repositories";
import type { LifecycleConfig } from "../lifecycle/context.ts";
import type { WorkLogger } from "../lifecycle/operation.ts";
import { createRequestLifecycle, type RequestLifecycle } from "../lifecycle/request-lifecycle.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** The life of every metered request: keys, async, takeovers, metering, stored answers (lifecycle/). */
    lifecycle: RequestLifecycle;
  }
}

/**
 * The request lifecycle over the app's Postgres and ledger. The sweep for queued and
 * abandoned asynchronous requests starts when the app is ready; closing waits for
 * background runs in flight.
 */
export default fp(
  async (app, opts: { config: LifecycleConfig; checkWebhookUrl(url: string): Promise<string | null>; now: () => number }) => {
    const lifecycle = createRequestLifecycle({
      repo: app.repos.requests,
      webhooks: webhooksRepository(app.db),
      checkWebhookUrl: opts.checkWebhookUrl,
      ledger: app.ledger,
      log: app.log as WorkLogger,
      config: opts.config,
      now: opts.now,
    });
    app.decorate("lifecycle", lifecycle);
    app.addHook("onReady", async () => lifecycle.start());
    app.addHook("onClose", async () => lifecycle.close());
  },
  { name: "lifecycle", dependencies: ["db", "ledger"] },
);
