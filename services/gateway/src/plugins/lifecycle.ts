import fp from "fastify-plugin";
import { settlementsRepository, webhooksRepository } from "@adrank/db/repositories";
import { publishCancel } from "@adrank/messaging";
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
    const settlements = settlementsRepository(app.db);
    const ledgerStream = app.bus.topo.streams.ledger.name;
    // What an operator alerts on: settles still waiting in the outbox (normally 0; see docs/decisions.md).
    if (!app.gatewayMetrics.metrics.registry.getSingleMetric("adrank_settlements_pending")) {
      app.gatewayMetrics.metrics.gaugeOnScrape("adrank_settlements_pending", "Settles in the outbox the ledger has not confirmed yet (all gateways of this deployment).", () => settlements.countPending(ledgerStream));
    }
    const lifecycle = createRequestLifecycle({
      repo: app.repos.requests,
      webhooks: webhooksRepository(app.db),
      checkWebhookUrl: opts.checkWebhookUrl,
      ledger: app.ledger,
      settlements,
      ledgerStream,
      cancelRun: (runId) => publishCancel(app.bus.nc, app.bus.topo, runId),
      onSettlement: (outcome) => app.gatewayMetrics.settlements.inc({ outcome }),
      log: app.log as WorkLogger,
      config: opts.config,
      now: opts.now,
    });
    app.decorate("lifecycle", lifecycle);
    app.addHook("onReady", async () => lifecycle.start());
    app.addHook("onClose", async () => lifecycle.close());
  },
  { name: "lifecycle", dependencies: ["db", "ledger", "bus", "metrics"] },
);
