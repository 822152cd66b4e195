import type { JetStreamClient } from "@nats-io/jetstream";
import { askPresence, openResultJoin, publishJob, type JoinLogger, type NatsConnection, type ResultRouter, type Topology } from "@adrank/messaging";
import { RefineResult, type RefineJob } from "@adrank/bus-contracts";
import { applyRefinementReport, refineAssetsOf, refinementWithoutPanels, refinementWithoutWork, type ClosePairRefiner } from "@adrank/rank-assembly";

export interface RefinerDeps {
  nc: NatsConnection;
  js: JetStreamClient;
  topo: Topology;
  /** Where the refinement job's result arrives (the gateway's one result subscription). */
  results: ResultRouter;
  log: JoinLogger;
  /** How long to wait for a refinement worker to say it runs. */
  presenceTimeoutMs?: number;
}

const RAW = "the scores are raw";

/**
 * Close-pair refinement through the refinement service (spec rank rule 8). Before any round
 * trip the gateway asks rank-assembly whether there is anything to refine, and the bus
 * whether a refinement worker runs, so a missing service costs no wait; the selection,
 * panels and adjustment happen in the service (panel-domain's refineClosePairs). Any failure leaves the
 * scores raw and says why in the summary: a ranking is never lost to its refinement.
 */
export function createClosePairRefiner(deps: RefinerDeps): ClosePairRefiner {
  return async (request) => {
    const { assets, plan, requestId } = request;
    const needless = refinementWithoutWork(request);
    if (needless) return needless;
    if (request.signal.aborted) return refinementWithoutPanels(assets, `Close-pair refinement did not start before the request's time limit; ${RAW}.`);
    if (!(await askPresence(deps.nc, deps.topo.presence("refinement"), deps.presenceTimeoutMs ?? 1_000))) {
      deps.log.warn({ requestId }, "no refinement worker answered: close pairs left unrefined");
      return refinementWithoutPanels(assets, `Close-pair refinement is unavailable right now; ${RAW}.`);
    }

    const join = openResultJoin<RefineResult["outcome"]>(deps.results, {
      stop: request.signal,
      onStop: () => ({ ok: false, error: `Close-pair refinement did not finish within the request's time limit; ${RAW}.` }),
      decode: (payload) => RefineResult.parse(payload).outcome,
      log: deps.log,
    });
    const jobId = `${requestId}_refine`;
    const job: RefineJob = { requestId, jobId, replyTo: join.replyTo(jobId), deadline: request.deadline, persona: plan.persona, assets: refineAssetsOf(request) };
    try {
      const pending = join.expect(job.jobId);
      await publishJob(deps.js, deps.topo.jobs.refine, job, { traceparent: request.traceparent, timeoutMs: 5_000 }).catch((err: unknown) => {
        deps.log.warn({ err, requestId }, "refinement job could not be published");
        join.fail(job.jobId, { ok: false, error: `Close-pair refinement could not be queued; ${RAW}.` });
      });
      const outcome = await pending;
      return outcome.ok ? applyRefinementReport(assets, outcome.report) : refinementWithoutPanels(assets, outcome.error);
    } finally {
      join.close();
    }
  };
}
