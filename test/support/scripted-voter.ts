import { startJobWorker, type JobWorker, type NatsConnection, type Topology } from "@adrank/messaging";
import { VoteJob, type VoteResult } from "@adrank/bus-contracts";

/** The image a vote picks by position, or null for an invalid vote (an answer that names no image). */
export type VoteChoice = "first" | "second" | null;

/**
 * A stand-in panel voter that consumes the real `jobs.vote` stream through the real job
 * worker and answers on the real result subjects in the vote-result schema, choosing as the
 * test scripts it: for outcomes the sim voter does not promise (a chosen winner per pair, a
 * dissenting seat). Like the real voter it sees only what the blinded job carries: the
 * persona, the seat and the two images in presentation order. It does not answer the
 * panel-voter presence check, so pairwise requests would get 503; refinement does not ask.
 */
export async function startScriptedVoter(nc: NatsConnection, topo: Topology, choose: (job: VoteJob) => VoteChoice) {
  const seen: VoteJob[] = [];
  const silent = { info: () => {}, warn: () => {}, error: () => {} };
  const worker: JobWorker = await startJobWorker({
    nc,
    topo,
    kind: "vote",
    service: "scripted-voter",
    schema: VoteJob,
    concurrency: 32,
    ackWaitMs: 30_000,
    maxDeliver: 1,
    logger: silent,
    worker: "scripted-voter",
    async handle(job): Promise<VoteResult["outcome"]> {
      seen.push(job);
      const choice = choose(job);
      return choice === null
        ? { ok: true, model: "script:voter", response: "I cannot tell. (scripted)", choice: null, invalidReason: "the answer names no image", simulated: true }
        : { ok: true, model: "script:voter", response: `Scripted vote.\nWINNER: ${choice === "first" ? 1 : 2}`, choice, simulated: true };
    },
    exhaustedError: "The scripted voter gave up.",
  });
  return { seen, stop: () => worker.stop() };
}
