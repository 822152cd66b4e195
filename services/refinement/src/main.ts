import { jetstream } from "@nats-io/jetstream";
import { runWorkerService, startResultRouter, workerPlan } from "@adrank/messaging";
import { RefineJob } from "@adrank/bus-contracts";
import { RefinementEnv } from "./config.ts";
import { createRefineHandler, REFINE_EXHAUSTED_ERROR } from "./refine-handler.ts";

await runWorkerService({
  name: "refinement",
  env: RefinementEnv,
  start({ config, logger, metrics, nc, topo }) {
    // The votes' results, every job's, on one subscription (drained with the connection at shutdown).
    const results = startResultRouter(nc, topo, { log: logger });
    const panels = metrics.counter("adrank_panels_total", "Panels run, by where they came from and their status.", ["source", "status"]);
    return workerPlan({
      job: {
        kind: "refine",
        schema: RefineJob,
        concurrency: config.REFINEMENT_CONCURRENCY,
        ackWaitMs: config.REFINEMENT_ACK_WAIT_MS,
        maxDeliver: config.REFINEMENT_MAX_DELIVER,
        handle: createRefineHandler({ results, js: jetstream(nc), topo, log: logger }),
        exhaustedError: REFINE_EXHAUSTED_ERROR,
        onOutcome: (_job, outcome) => {
          if (outcome.ok) for (const result of outcome.report.results) panels.inc({ source: "refinement", status: String(result.status) });
        },
      },
      backlogHelp: "Refinements waiting on this service's JetStream consumer or handed out and not yet acked.",
      // The gateway asks before it hands over a refinement, so a missing service costs no wait.
      presence: () => ({}),
    });
  },
});
