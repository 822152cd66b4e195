import { evaluationFixture as evaluation } from "@adrank/bus-contracts/testing";
import { encodeJson, HEADERS, startJobWorker, type JobWorker, type NatsConnection, type Topology } from "@adrank/messaging";
import { ScoreJob, type ScoreResult } from "@adrank/bus-contracts";

export interface ScriptedJob {
  job: ScoreJob;
  assetIndex: number;
  headers: Record<string, string | undefined>;
}

/** What to do with a job: answer (once or twice), fail with a sentence, or never answer. */
export type Script =
  | { kind: "answer"; score: number; delayMs?: number; duplicateScore?: number }
  | { kind: "fail"; error: string }
  | { kind: "silent" };

/**
 * A stand-in scorer that consumes the real JOBS stream through the real job worker and
 * answers on the real result subjects, as the test scripts it: for fault cases the sim
 * model cannot produce on demand (failed ablations, redeliveries, silence). The scenario is
 * chosen by the audience name in the job's persona.
 */
export async function startScriptedScorer(nc: NatsConnection, topo: Topology, script: (job: ScriptedJob) => Script) {
  const seen: ScriptedJob[] = [];
  // Per request: asset index -> jobs of that asset being worked on.
  const inFlight = new Map<string, Map<number, number>>();
  const peak = new Map<string, number>();
  const silent = { info: () => {}, warn: () => {}, error: () => {} };
  const worker: JobWorker = await startJobWorker({
    nc,
    topo,
    kind: "score",
    service: "scripted-scorer",
    schema: ScoreJob,
    concurrency: 32,
    ackWaitMs: 30_000,
    maxDeliver: 1,
    logger: silent,
    worker: "scripted",
    async handle(job, ctx): Promise<ScoreResult["outcome"]> {
      const assetIndex = Number(job.jobId.split("_")[1]);
      const headers = Object.fromEntries([HEADERS.msgId, HEADERS.requestId, HEADERS.jobId, HEADERS.deadline].map((h) => [h, ctx.headers?.get(h) || undefined]));
      const scripted: ScriptedJob = { job, assetIndex, headers };
      seen.push(scripted);
      const active = inFlight.get(job.requestId) ?? new Map<number, number>();
      inFlight.set(job.requestId, active);
      active.set(assetIndex, (active.get(assetIndex) ?? 0) + 1);
      peak.set(job.requestId, Math.max(peak.get(job.requestId) ?? 0, active.size));
      try {
        const plan = script(scripted);
        if (plan.kind === "silent") {
          await new Promise((_resolve, reject) => ctx.signal.addEventListener("abort", () => reject(new Error("deadline")), { once: true }));
        }
        if (plan.kind === "fail") return { ok: false, error: plan.error };
        if (plan.kind !== "answer") throw new Error("unreachable");
        if (plan.delayMs) await new Promise((r) => setTimeout(r, plan.delayMs));
        if (plan.duplicateScore !== undefined) {
          // A redelivered job answers again: the gateway must keep the first answer only.
          const first = { requestId: job.requestId, jobId: job.jobId, worker: "scripted", outcome: { ok: true, evaluation: evaluation(plan.score) } } satisfies ScoreResult;
          nc.publish(topo.result(job.requestId, job.jobId), encodeJson(first));
          return { ok: true, evaluation: evaluation(plan.duplicateScore) };
        }
        return { ok: true, evaluation: evaluation(plan.score) };
      } finally {
        // An asset leaves the worker when its last evaluation is answered.
        const left = (active.get(assetIndex) ?? 1) - 1;
        if (left === 0) active.delete(assetIndex);
        else active.set(assetIndex, left);
      }
    },
    exhaustedError: "The scripted scorer gave up.",
  });
  return {
    seen,
    /** Most distinct assets of one request the scorer held at once. */
    peakAssets: (requestId: string) => peak.get(requestId) ?? 0,
    stop: () => worker.stop(),
  };
}
