import type { JetStreamClient } from "@nats-io/jetstream";
import { openResultJoin, publishJob, type JoinLogger, type ResultRouter, type Topology } from "@adrank/messaging";
import { distinctVoteReceipts, mergeModelUsage, VoteResult, type ImageRef, type ModelUsage, type VoteJob, type VoteReceipt } from "@adrank/bus-contracts";
import { PANEL_SEATS, type CastVote, type Side } from "@adrank/panel-domain";

/** One side of a pair as a voter gets it: the prepared image, the copy it runs with and its own asset type. */
export interface PanelSide {
  image: ImageRef;
  copy: Record<string, string> | null;
  /** Frames this image in the vote, whatever the other side is; absent or null when not stated. */
  assetType?: string | null | undefined;
}

/** The request's persona (audience, goal, placement): the same for both sides, so it has no asset type. */
type PanelPersona = VoteJob["persona"];

export interface PanelSessionOptions {
  /** The process's result router: the votes' results arrive there. */
  results: ResultRouter;
  js: JetStreamClient;
  topo: Topology;
  requestId: string;
  /** Epoch ms: voters drop the jobs after it and the session stops waiting. */
  deadline: number;
  /** Fires at the deadline or when the requester gives up. */
  stop: AbortSignal;
  /** The sentence an unanswered vote gets when `stop` fires. */
  stopReason(): string;
  traceparent: string | null;
  publishTimeoutMs?: number;
  log: JoinLogger;
}

export interface PanelRun {
  votes: CastVote[];
  /** The voter model that answered (from the first valid answer), if any answered. */
  model: string | null;
  /** Calls and tokens of the panel's votes, per voter model. */
  usage: ModelUsage[];
  /** How the votes were produced (the answer's receipt), without repeats; empty from older voters. */
  receipts: VoteReceipt[];
}

type VoteOutcome = VoteResult["outcome"];

/**
 * The panels of one request: one join on the process's result router, shared by every
 * panel. `run` publishes the five votes of a pair (3 shown `ab`, 2 shown `ba`) at once and
 * resolves when each has a result or the session stops; a vote without a result is an
 * invalid vote with the stop's sentence, never a guess.
 */
export function openPanelSession(opts: PanelSessionOptions) {
  const join = openResultJoin<VoteOutcome>(opts.results, {
    stop: opts.stop,
    onStop: () => ({ ok: false, error: opts.stopReason() }),
    decode: (payload) => VoteResult.parse(payload).outcome,
    log: opts.log,
  });

  const castOne = async (panelKey: string, seat: number, persona: PanelPersona, a: PanelSide, b: PanelSide): Promise<{ vote: CastVote; model: string | null; usage?: ModelUsage; receipt?: VoteReceipt }> => {
    const { voterId, order } = PANEL_SEATS[seat]!;
    const [first, second] = order === "ab" ? [a, b] : [b, a];
    const jobId = `${opts.requestId}_${panelKey}_v${seat + 1}`;
    const job: VoteJob = {
      requestId: opts.requestId,
      jobId,
      replyTo: join.replyTo(jobId),
      deadline: opts.deadline,
      voterId,
      seat,
      persona,
      images: [first.image, second.image],
      copy: [first.copy, second.copy],
      assetTypes: [first.assetType ?? null, second.assetType ?? null],
    };
    const pending = join.expect(job.jobId);
    try {
      await publishJob(opts.js, opts.topo.jobs.vote, job, { traceparent: opts.traceparent, timeoutMs: opts.publishTimeoutMs ?? 5_000 });
    } catch (err) {
      opts.log.warn({ err, jobId: job.jobId }, "vote job could not be published");
      join.fail(job.jobId, { ok: false, error: "The vote could not be queued." });
    }
    const outcome = await pending;
    if (!outcome.ok) return { vote: { voterId, order, winner: null, response: "", invalidReason: outcome.error }, model: null };
    const winner: Side | null = outcome.choice === null ? null : (outcome.choice === "first") === (order === "ab") ? "a" : "b";
    const vote: CastVote = { voterId, order, winner, response: outcome.response, model: outcome.model, simulated: outcome.simulated };
    const version = outcome.receipt?.versions[0];
    if (version) vote.modelVersion = version;
    if (winner === null) vote.invalidReason = outcome.invalidReason ?? "the answer names no image";
    return { vote, model: outcome.model, ...(outcome.usage ? { usage: outcome.usage } : {}), ...(outcome.receipt ? { receipt: outcome.receipt } : {}) };
  };

  return {
    /** Runs the panel of one pair; `panelKey` must be unique in the request and a safe subject token. */
    async run(panelKey: string, persona: PanelPersona, a: PanelSide, b: PanelSide): Promise<PanelRun> {
      const cast = await Promise.all(PANEL_SEATS.map((_, seat) => castOne(panelKey, seat, persona, a, b)));
      return {
        votes: cast.map((c) => c.vote),
        model: cast.find((c) => c.model !== null)?.model ?? null,
        usage: mergeModelUsage([cast.flatMap((c) => (c.usage ? [c.usage] : []))]),
        receipts: distinctVoteReceipts(cast.flatMap((c) => (c.receipt ? [c.receipt] : []))),
      };
    },
    close: () => join.close(),
  };
}
export type PanelSession = ReturnType<typeof openPanelSession>;
