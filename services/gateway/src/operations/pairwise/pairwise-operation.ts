import type { FastifyInstance } from "fastify";
import { distinctVoteReceipts, mergeModelUsage, type ModelUsage, type VoteReceipt } from "@adrank/bus-contracts";
import { PairwiseRequest, type PairwiseResponse } from "@adrank/contracts";
import { askPresence } from "@adrank/messaging";
import { openPanelSession, type PanelSide } from "@adrank/panel-client";
import { presentPanel, tallyPanel } from "@adrank/panel-domain";
import { assemblePairwiseResponse, billedPanelsOf, createDispatchTally, personaOf, type ResolvedAudience } from "@adrank/rank-assembly";
import { VotersUnavailableError } from "../../errors/api-errors.ts";
import { parseJsonBody } from "../../http/parse-body.ts";
import { UnfinishedWork, type Operation } from "../../lifecycle/operation.ts";
import { startInOrder } from "../shared/asset-slots.ts";
import { fetchedUrlsOf } from "../shared/fetched-urls.ts";
import { imageRefOf, prepareImage } from "../shared/prepare-image.ts";
import { resolveAudience } from "../shared/resolve-audience.ts";

export interface PairwiseOptions {
  /** PAIRWISE_TIMEOUT_MS, counted from arrival. */
  timeoutMs: number;
  /** How long to wait for a panel voter to answer presence (PRESENCE_TIMEOUT_MS). */
  presenceTimeoutMs: number;
  /** Images prepared at once (fetch, decode, normalize). */
  imageConcurrency: number;
}

/** A validated pairwise request; `voterModel` is what presence said the voter pool runs, once admitted. */
export interface PairwisePlan {
  body: PairwiseRequest;
  audience: ResolvedAudience;
  voterModel?: string | undefined;
}

/**
 * POST /api/v1/pairwise (compareCreativePairs): a body is validated and its audience
 * resolved; before any credit is reserved a voter must answer (else 503); the run prepares
 * every distinct image once, runs all panels at once (5 blinded votes each, 3 shown ab and
 * 2 ba) and bills the completed panels only. A client that leaves pays for the panels that
 * completed or had been dispatched to the voters when it left.
 */
export function pairwiseOperation(app: FastifyInstance, opts: PairwiseOptions): Operation<PairwisePlan> {
  const { nc, js, topo, images, results: resultRouter } = app.bus;
  return {
    name: "pairwise",
    kind: "pairwise",
    timeoutMs: opts.timeoutMs,

    async prepare(raw, caller) {
      const body = parseJsonBody(PairwiseRequest, raw);
      const audience = await resolveAudience(app.repos.audiences, caller.accountId, body);
      return {
        plan: { body, audience },
        units: body.pairs.length,
        fetches: fetchedUrlsOf(body.pairs.flatMap((p) => [p.a.image_url, p.b.image_url])),
        total: body.pairs.length,
        async: body.async,
        webhookUrl: body.webhook_url,
      };
    },

    async admit(plan) {
      const voter = await askPresence(nc, topo.presence("panel-voter"), opts.presenceTimeoutMs);
      if (!voter) throw new VotersUnavailableError();
      return { ...plan, voterModel: voter.model };
    },

    async run({ body, audience, voterModel }, { requestId, runId, workDeadline, stop, stoppedBy, onProgress, traceparent, log }) {
      // The request's persona; each image brings its own asset_type (or none) to the panel.
      const persona = personaOf(body, audience);
      // Filled as panels end, so that work cut short still records the model calls it made.
      const panelUsage: ModelUsage[][] = [];
      const voterReceipts: VoteReceipt[] = [];
      let done = 0;
      const stopReason = () =>
        stoppedBy() === "client" ? "The request was cancelled before the vote was cast." : `The vote was not cast within the request's time limit of ${Math.round(opts.timeoutMs / 1000)} s.`;
      // Panels handed to voters, for a client that leaves; frozen before the session ends every wait.
      const tally = createDispatchTally();
      stop.addEventListener("abort", () => tally.freeze(), { once: true });
      const session = openPanelSession({ results: resultRouter, js, topo, requestId: runId, deadline: workDeadline, stop, stopReason, traceparent, log });
      try {
        // Each distinct image is fetched and stored once, however many pairs use it.
        const urls = [...new Set(body.pairs.flatMap((p) => [p.a.image_url, p.b.image_url]))];
        const ctx = { signal: stop, stopReason, intake: app.imageIntake, storeImage: (ref: string, bytes: Uint8Array) => images.put(ref, bytes), log };
        const preparations = startInOrder(urls, opts.imageConcurrency, (url, index) => prepareImage({ index, url }, ctx));
        const prepared = new Map(urls.map((url, i) => [url, preparations[i]!]));
        const sideOf = async (asset: PairwiseRequest["pairs"][number]["a"]): Promise<PanelSide | string> => {
          const p = await prepared.get(asset.image_url)!;
          return p.ok ? { image: imageRefOf(p.image), copy: null, assetType: asset.asset_type ?? null } : p.error;
        };

        // A pair's panel starts as soon as its two images are ready.
        const results = await Promise.all(
          body.pairs.map(async (pair, i) => {
            const [a, b] = await Promise.all([sideOf(pair.a), sideOf(pair.b)]);
            if (typeof a === "string" || typeof b === "string") {
              const which = typeof a === "string" ? `Image a (${pair.a.id})` : `Image b (${pair.b.id})`;
              const reason = typeof a === "string" ? a : (b as string);
              onProgress(++done);
              return presentPanel({ pairId: pair.pair_id, aId: pair.a.id, bId: pair.b.id, votes: [], tally: tallyPanel([]), error: `${which} could not be used: ${reason} No vote was cast and the pair is not billed.` });
            }
            const key = `p${i + 1}`;
            tally.dispatched(key);
            const run = await session.run(key, persona, a, b);
            panelUsage.push(run.usage);
            voterReceipts.push(...run.receipts);
            onProgress(++done);
            const result = presentPanel({ pairId: pair.pair_id, aId: pair.a.id, bId: pair.b.id, votes: run.votes, tally: tallyPanel(run.votes) });
            tally.answered(key, result.status === "done");
            return result;
          }),
        );
        const completed = billedPanelsOf(results);
        return {
          // A client that left is not answered: it pays for what it set going (see the catch below).
          unitsUsed: stoppedBy() === "client" ? tally.billedWhenClientLeft(body.pairs.length) : completed,
          modelUsage: mergeModelUsage(panelUsage),
          answer: (settlement): PairwiseResponse => {
            for (const r of results) app.gatewayMetrics.panels.inc({ source: "pairwise", status: r.status });
            app.gatewayMetrics.billed.inc({ kind: "pairwise" }, settlement.units);
            return assemblePairwiseResponse({ requestId, request: body, platform: persona.platform, audienceName: audience.name, results, presenceModel: voterModel, settlement, voterReceipts: distinctVoteReceipts(voterReceipts) });
          },
        };
      } catch (err) {
        // Client gone: it pays for the panels that completed or had been dispatched to the voters when it left
        // (DispatchTally). Our own failure: nothing is charged. The votes cast are recorded either way.
        throw new UnfinishedWork(err, { unitsUsed: stoppedBy() === "client" ? tally.billedWhenClientLeft(body.pairs.length) : 0, modelUsage: mergeModelUsage(panelUsage) });
      } finally {
        session.close();
      }
    },
  };
}
