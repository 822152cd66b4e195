import type { JetStreamClient } from "@nats-io/jetstream";
import { HEADERS, type JobContext, type JoinLogger, type ResultRouter, type Topology } from "@adrank/messaging";
import type { RefineJob, RefineResult } from "@adrank/bus-contracts";
import { openPanelSession } from "@adrank/panel-client";
import { refineClosePairs } from "@adrank/panel-domain";

/** The error sentence of a refinement whose every delivery failed. */
export const REFINE_EXHAUSTED_ERROR = "Close-pair refinement failed after several attempts.";

/**
 * One refinement job: its panels share one session (one join on the process's result
 * router); votes without a result by the job's deadline count as invalid.
 */
export function createRefineHandler(deps: { results: ResultRouter; js: JetStreamClient; topo: Topology; log: JoinLogger }) {
  return async (job: RefineJob, { signal, headers }: JobContext): Promise<RefineResult["outcome"]> => {
    const session = openPanelSession({
      results: deps.results,
      js: deps.js,
      topo: deps.topo,
      requestId: job.requestId,
      deadline: job.deadline,
      stop: signal,
      stopReason: () => "The vote was not cast within the request's time limit.",
      traceparent: headers?.get(HEADERS.traceparent) || null,
      log: deps.log,
    });
    try {
      const report = await refineClosePairs(job, (key, persona, a, b) => {
        // Each panel's votes are model calls on the voters: a cancelled run (or a passed deadline) publishes none.
        signal.throwIfAborted();
        return session.run(key, persona, { image: a.image, copy: a.copy, assetType: a.assetType }, { image: b.image, copy: b.copy, assetType: b.assetType });
      });
      return { ok: true, report };
    } finally {
      session.close();
    }
  };
}
