import { ValidationError, type AdRankClient, type RetryEvent, type RetryPolicy } from "@adrank/sdk";
import { counted, nounFor } from "../plural.ts";
import { startProgress } from "../progress.ts";
import { finishedAudienceRankings, finishedPanels, finishedRanking, type FinishedRanking, type FinishedRequest } from "./finished-request.ts";
import type { EvalPlan, PlannedRequest } from "./plan.ts";
import { requestBodyOf } from "./request-bodies.ts";
import { requestKeyOf } from "./run-settings.ts";
import { writeState, type EvalState } from "./state.ts";

// Sends an eval plan's requests one after another (a key's rate limit is per minute, so
// sending them side by side would only make them wait), keeping each answer in the state file
// as it comes, so that a run stopped at any point resumes where it was.

/**
 * A long run meets the rate limit more than once: more retries than a single command's, each
 * waiting what the server's Retry-After says (the SDK caps one wait at 60 s).
 */
const EVAL_RETRY: Partial<RetryPolicy> = { maxRetries: 6 };

export interface EvalRunInput {
  plan: EvalPlan;
  state: EvalState;
  statePath: string;
  /** --record-outcomes: the metric each ranking's outcomes are recorded under; null without it. */
  recordMetric: string | null;
}

export interface EvalRunDeps {
  /** The API client; it calls `onRetry` before each wait, which the run shows on its progress line. */
  clientOf: (onRetry: (e: RetryEvent) => void) => AdRankClient;
  err: NodeJS.WriteStream;
  /** The retry policy of each call; EVAL_RETRY by default. */
  retry?: Partial<RetryPolicy>;
}

export interface EvalRunReport {
  finished: FinishedRequest[];
  /** Requests answered by an earlier run of the same state. */
  resumed: number;
  /** Outcomes recorded (or found recorded) by --record-outcomes, over every ranking of the run. */
  recorded: number;
}

/** The progress line's waiting note: "rate limited, waiting 12.0 s" or "retrying, waiting 1.0 s". */
export const retryNote = (e: RetryEvent) => `${e.error.status === 429 ? "rate limited" : "retrying"}, waiting ${(e.delayMs / 1000).toFixed(1)} s`;

/** Creatives scored so far, each audience's score of a creative counted apart (as the figures count them). */
const scoredSoFar = (done: readonly FinishedRequest[]) =>
  done.reduce((n, f) => n + (f.kind === "rank" ? f.scores.length : f.kind === "rank-audiences" ? f.by_audience.reduce((m, a) => m + a.scores.length, 0) : 0), 0);

function requestLine(request: PlannedRequest, plan: EvalPlan, done: readonly FinishedRequest[]): string {
  const of = `request ${request.index + 1} of ${plan.requests.length}`;
  const scoredCount = scoredSoFar(done);
  const scored = `(${scoredCount} ${nounFor(scoredCount, "creative")} scored so far)`;
  if (request.kind === "rank-audiences") {
    const keys = request.audiences.map((a) => plan.groups[a.group]!.key);
    const { campaign, goal } = keys[0]!;
    const audiences = keys.map((k) => ("id" in k.audience ? k.audience.id : k.audience.name)).join(", ");
    // Billed per creative and audience: the line says how many evaluations the request is.
    const assets = request.audiences[0]!.rows.length;
    const evaluations = assets * request.audiences.length;
    return `${of}: ranking ${counted(assets, "creative")} for ${request.audiences.length} audiences side by side (${counted(evaluations, "evaluation")}) of ${[campaign, goal].filter((p) => p !== null).join(" / ")}: ${audiences} ${scored}`;
  }
  const group = plan.groups[request.group]!.label;
  if (request.kind === "rank") return `${of}: ranking ${counted(request.rows.length, "creative")} of ${group} ${scored}`;
  const completed = done.reduce((n, f) => n + (f.kind === "pairwise" ? f.pairs.filter((p) => p.winner !== null).length : 0), 0);
  return `${of}: ${counted(request.rows.length, "labelled pair")} of ${group} to the panel (${completed} ${nounFor(completed, "panel")} completed so far)`;
}

/** Posts a ranking's outcomes (only of the creatives it scored: the API refuses the others). */
async function recordOutcomes(client: AdRankClient, request: Extract<PlannedRequest, { kind: "rank" }>, answer: FinishedRanking, metric: string, retry: Partial<RetryPolicy>): Promise<number> {
  const value = new Map(request.rows.map((r) => [r.id, r.outcome]));
  const outcomes = answer.scores.filter((s) => value.has(s.id)).map((s) => ({ request_id: answer.request_id, asset_id: s.id, metric, value: value.get(s.id)! }));
  if (outcomes.length === 0) return 0;
  const { data } = await client.outcomes.record({ outcomes }, { retry });
  return data.outcomes.length;
}

/** Sends one planned request with its run's Idempotency-Key, and keeps what its figures need. */
async function send(client: AdRankClient, request: PlannedRequest, { plan, state }: EvalRunInput, retry: Partial<RetryPolicy>): Promise<FinishedRequest> {
  const body = await requestBodyOf(request, plan.groups, state.settings);
  const callOptions = { idempotencyKey: requestKeyOf(state.dataset_sha256, state.settings, state.run_id, request.index), retry };
  try {
    if (body.kind === "rank") return finishedRanking(request.index, (await client.rank(body.body, callOptions)).data);
    if (body.kind === "rank-audiences") return finishedAudienceRankings(request as Extract<PlannedRequest, { kind: "rank-audiences" }>, (await client.rankAcrossAudiences(body.body, callOptions)).data);
    return finishedPanels(request as Extract<PlannedRequest, { kind: "pairwise" }>, (await client.pairwise(body.body, callOptions)).data);
  } catch (err) {
    // The same key with another body: the images changed since the run that sent it.
    if (err instanceof ValidationError && err.field?.toLowerCase() === "idempotency-key") {
      throw new Error(`request ${request.index + 1}: its images changed since the interrupted run sent it, so it cannot be resumed; run again with --fresh`, { cause: err });
    }
    throw err;
  }
}

/**
 * Runs what the state has not got yet, writing the state after every answer. An error stops
 * the run with everything answered so far kept; a request interrupted in flight is sent again
 * with the same Idempotency-Key, so the server answers it from its store instead of billing it twice.
 */
export async function runEval(input: EvalRunInput, deps: EvalRunDeps): Promise<EvalRunReport> {
  const { plan, state, statePath, recordMetric } = input;
  const done = new Map(state.done.map((f) => [f.index, f]));
  const resumed = plan.requests.filter((r) => done.has(r.index)).length;
  let progress: ReturnType<typeof startProgress> | null = null;
  const client = deps.clientOf((e) => progress?.note(retryNote(e)));
  const retry = deps.retry ?? EVAL_RETRY;
  const save = async () => {
    state.done = plan.requests.flatMap((r) => done.get(r.index) ?? []);
    await writeState(statePath, state);
  };
  await save();
  let recorded = 0;

  // A ranking whose outcomes are not yet recorded under this metric (--record-outcomes).
  const toRecord = (f: FinishedRequest): boolean => recordMetric !== null && f.kind === "rank" && f.recorded?.metric !== recordMetric;

  for (const request of plan.requests) {
    const earlier = done.get(request.index);
    if (earlier && !toRecord(earlier)) {
      if (earlier.kind === "rank" && earlier.recorded) recorded += earlier.recorded.count;
      continue;
    }
    progress = startProgress(earlier ? `request ${request.index + 1} of ${plan.requests.length}: recording the outcomes of its ranking` : requestLine(request, plan, [...done.values()]), deps.err);
    try {
      const answer = earlier ?? (await send(client, request, input, retry));
      if (!earlier) {
        // Kept before anything else is done with it: the ranking is paid for.
        done.set(request.index, answer);
        await save();
      }
      if (toRecord(answer) && answer.kind === "rank" && request.kind === "rank") {
        const count = await recordOutcomes(client, request, answer, recordMetric!, retry);
        answer.recorded = { metric: recordMetric!, count };
        recorded += count;
        await save();
      }
    } finally {
      progress.stop();
      progress = null;
    }
  }
  return { finished: plan.requests.flatMap((r) => done.get(r.index) ?? []), resumed, recorded };
}
