import { startDeadline } from "@adrank/runtime";
import type { JetStreamClient } from "@nats-io/jetstream";
import type { PairwiseRequest, PairwiseResponse } from "@adrank/contracts";
import { askPresence, type NatsConnection, type Topology } from "@adrank/messaging";
import type { ImageRef } from "@adrank/bus-contracts";
import { openPanelSession, type PanelSide } from "@adrank/panel-client";
import { PANEL_SIZE, presentPanel, tallyPanel } from "@adrank/panel-domain";
import { personaOf, type ResolvedAudience } from "@adrank/rank-assembly";
import type { Caller } from "../auth/authenticator.ts";
import { VotersUnavailableError } from "../errors/api-errors.ts";
import { reserveUsage, settleUsage, type MeteringLedger } from "../metering/usage.ts";
import { startInOrder } from "../rank/asset-slots.ts";
import { prepareAssetImage, type AssetImageIntake, type AssetLogger } from "../rank/evaluate-asset.ts";
import { settleMarginMs } from "../rank/run-rank.ts";

export interface PairwiseDeps {
  /** Counts panels by status and the panels settled. */
  observe?(results: ReadonlyArray<{ status: string }>, settledPanels: number): void;
  nc: NatsConnection;
  js: JetStreamClient;
  topo: Topology;
  ledger: MeteringLedger;
  intake: AssetImageIntake;
  storeImage(ref: string, bytes: Uint8Array): Promise<void>;
  /** Images prepared at once (fetch, decode, normalize). */
  imageConcurrency: number;
  timeoutMs: number;
  ledgerTimeoutMs: number;
  presenceTimeoutMs: number;
  now(): number;
}

export interface PairwiseCall {
  requestId: string;
  caller: Caller;
  body: PairwiseRequest;
  audience: ResolvedAudience;
  receivedAt: number;
  clientGone: AbortSignal;
  traceparent: string | null;
  log: AssetLogger & { info(obj: object, msg?: string): void };
}

export interface PairwiseResult {
  body: PairwiseResponse;
  /** Panels left in the key's pairwise window. */
  rateLimitRemaining: number;
}

/** Pairwise comparisons have no asset type of their own; the persona sees the default framing. */
const PAIRWISE_ASSET_TYPE = "Social Media Post";

/**
 * The pairwise operation after validation: make sure a voter runs (else 503), reserve one
 * panel per pair, prepare every distinct image once, run all panels at once (5 blinded votes
 * each, 3 shown ab and 2 ba), settle the completed panels only, and answer with every vote.
 */
export async function runPairwise(deps: PairwiseDeps, call: PairwiseCall): Promise<PairwiseResult> {
  const { body, requestId, caller, log } = call;
  const voter = await askPresence(deps.nc, deps.topo.presence("panel-voter"), deps.presenceTimeoutMs);
  if (!voter) throw new VotersUnavailableError();
  const reservation = await reserveUsage(deps.ledger, { kind: "pairwise", accountId: caller.accountId, keyId: caller.keyId, reservationId: requestId, units: body.pairs.length }, log);

  const workDeadline = call.receivedAt + deps.timeoutMs - settleMarginMs(deps.timeoutMs, deps.ledgerTimeoutMs);
  const deadline = startDeadline(workDeadline - deps.now());
  const settleRetry = { limitAt: call.receivedAt + deps.timeoutMs, ledgerTimeoutMs: deps.ledgerTimeoutMs, now: deps.now };
  const stop = AbortSignal.any([deadline.signal, call.clientGone]);
  const stopReason = () => (call.clientGone.aborted ? "The request was cancelled before the vote was cast." : `The vote was not cast within the request's time limit of ${Math.round(deps.timeoutMs / 1000)} s.`);
  const persona = personaOf(body, call.audience, PAIRWISE_ASSET_TYPE);

  let completed = 0;
  let settled: Awaited<ReturnType<typeof settleUsage>> = null;
  let response: PairwiseResponse | undefined;
  const session = openPanelSession({ nc: deps.nc, js: deps.js, topo: deps.topo, requestId, deadline: workDeadline, stop, stopReason, traceparent: call.traceparent, log });
  try {
    // Each distinct image is fetched and stored once, however many pairs use it.
    const urls = [...new Set(body.pairs.flatMap((p) => [p.a.image_url, p.b.image_url]))];
    const ctx = { signal: stop, stopReason, intake: deps.intake, storeImage: deps.storeImage, log };
    const preparations = startInOrder(urls, deps.imageConcurrency, (url, index) => prepareAssetImage({ index, url }, ctx));
    const prepared = new Map(urls.map((url, i) => [url, preparations[i]!]));
    const sideOf = async (url: string): Promise<PanelSide | string> => {
      const p = await prepared.get(url)!;
      if (!p.ok) return p.outcome.kind === "failed" ? p.outcome.error : "The image could not be prepared.";
      const image: ImageRef = { ref: p.image.ref, mime: p.image.mime, width: p.image.width, height: p.image.height };
      return { image, copy: null };
    };

    // A pair's panel starts as soon as its two images are ready.
    const results = await Promise.all(
      body.pairs.map(async (pair, i) => {
        const [a, b] = await Promise.all([sideOf(pair.a.image_url), sideOf(pair.b.image_url)]);
        if (typeof a === "string" || typeof b === "string") {
          const which = typeof a === "string" ? `Image a (${pair.a.id})` : `Image b (${pair.b.id})`;
          const reason = typeof a === "string" ? a : (b as string);
          return presentPanel({ pairId: pair.pair_id, aId: pair.a.id, bId: pair.b.id, votes: [], tally: tallyPanel([]), error: `${which} could not be used: ${reason} No vote was cast and the pair is not billed.` });
        }
        const run = await session.run(`p${i + 1}`, persona, a, b);
        return presentPanel({ pairId: pair.pair_id, aId: pair.a.id, bId: pair.b.id, votes: run.votes, tally: tallyPanel(run.votes) });
      }),
    );
    completed = results.filter((r) => r.status === "done").length;
    settled = await settleUsage(deps.ledger, { accountId: caller.accountId, reservationId: requestId, unitsUsed: completed }, log, settleRetry);
    deps.observe?.(results, settled ? settled.unitsUsed : 0);
    response = {
      request_id: requestId,
      pairs: results,
      summary: {
        goal: body.goal,
        platform: persona.platform,
        audience: call.audience.name,
        model: voter.model ?? "unknown",
        panel_size: PANEL_SIZE,
        pairs_requested: body.pairs.length,
        pairs_completed: completed,
        pairs_failed: body.pairs.length - completed,
        valid_votes: results.reduce((n, r) => n + r.votes.filter((v) => v.valid).length, 0),
        pairwise_evaluations: settled ? settled.unitsUsed : completed,
        credits_used: settled ? settled.creditsUsed : 0,
        credits_remaining: settled ? settled.balance : null,
      },
    };
  } finally {
    session.close();
    if (!response) {
      // Our own failure, or the client left before the panels ended: nothing is charged.
      settled = await settleUsage(deps.ledger, { accountId: caller.accountId, reservationId: requestId, unitsUsed: 0 }, log, settleRetry);
    }
    log.info({ reserved: body.pairs.length, completed, settled: settled !== null, clientGone: call.clientGone.aborted }, "pairwise metered");
    deadline.clear();
  }
  return { body: response, rateLimitRemaining: settled?.windowRemaining ?? reservation.windowRemaining };
}
