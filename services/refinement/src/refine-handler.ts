import { hostname } from "node:os";
import type { JetStreamClient } from "@nats-io/jetstream";
import type { JoinLogger, NatsConnection, Reply, Topology } from "@adrank/messaging";
import type { RefineJob, RefineResult } from "@adrank/bus-contracts";
import { openPanelSession } from "@adrank/panel-client";
import { refineClosePairs } from "@adrank/panel-domain";

export const WORKER_ID = `${hostname()}:${process.pid}`;

function replyTo(topo: Topology, job: RefineJob, outcome: RefineResult["outcome"]): Reply {
  return { subject: topo.result(job.requestId, job.jobId), payload: { requestId: job.requestId, jobId: job.jobId, worker: WORKER_ID, outcome } satisfies RefineResult };
}

/**
 * One refinement job: its panels share one session (one subscription to the request's
 * results); votes without a result by the job's deadline count as invalid.
 */
export function createRefineHandler(deps: { nc: NatsConnection; js: JetStreamClient; topo: Topology; log: JoinLogger }) {
  return async (job: RefineJob, signal: AbortSignal, traceparent: string | null): Promise<Reply> => {
    const session = openPanelSession({
      nc: deps.nc,
      js: deps.js,
      topo: deps.topo,
      requestId: job.requestId,
      deadline: job.deadline,
      stop: signal,
      stopReason: () => "The vote was not cast within the request's time limit.",
      traceparent,
      log: deps.log,
    });
    try {
      const report = await refineClosePairs(job, (key, persona, a, b) => session.run(key, persona, { image: a.image, copy: a.copy }, { image: b.image, copy: b.copy }));
      return replyTo(deps.topo, job, { ok: true, report });
    } finally {
      session.close();
    }
  };
}

export function refineFailureReply(topo: Topology, job: RefineJob): Reply {
  return replyTo(topo, job, { ok: false, error: "Close-pair refinement failed after several attempts." });
}
