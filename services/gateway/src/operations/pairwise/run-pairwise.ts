import type { JetStreamClient } from "@nats-io/jetstream";
import { mergeModelUsage, type ModelUsage } from "@adrank/bus-contracts";
import type { PairwiseRequest, PairwiseResponse } from "@adrank/contracts";
import { askPresence, type NatsConnection, type Topology } from "@adrank/messaging";
import { openPanelSession, type PanelSide } from "@adrank/panel-client";
import { PANEL_SIZE, presentPanel, tallyPanel, votersUsed } from "@adrank/panel-domain";
import { personaOf, type ResolvedAudience } from "@adrank/rank-assembly";
import { VotersUnavailableError } from "../../errors/api-errors.ts";
import { startInOrder } from "../shared/asset-slots.ts";
import { runMetered, type MeteredCall, type MeteredDeps, type MeteredResult } from "../shared/metered-request.ts";
import { imageRefOf, prepareImage, type ImageIntake, type PreparationLogger } from "../shared/prepare-image.ts";

export interface PairwiseDeps extends MeteredDeps {
  /** Counts panels by status and the panels settled. */
  observe?(results: ReadonlyArray<{ status: string }>, settledPanels: number): void;
  nc: NatsConnection;
  js: JetStreamClient;
  topo: Topology;
  intake: ImageIntake;
  storeImage(ref: string, bytes: Uint8Array): Promise<void>;
  /** Images prepared at once (fetch, decode, normalize). */
  imageConcurrency: number;
  presenceTimeoutMs: number;
}

export interface PairwiseCall extends Omit<MeteredCall, "kind" | "units" | "log"> {
  body: PairwiseRequest;
  audience: ResolvedAudience;
  /** The id votes travel under on the bus: the request id, or a fresh one for a takeover's attempt. */
  runId?: string;
  /** Called as each pair's panel ends, with how many have. */
  onProgress?(done: number): void;
  traceparent: string | null;
  log: PreparationLogger & MeteredCall["log"] & { debug(obj: object, msg?: string): void };
}

/**
 * The pairwise operation after validation: make sure a voter runs (else 503), then, as a
 * metered request over one panel per pair, prepare every distinct image once, run all panels
 * at once (5 blinded votes each, 3 shown ab and 2 ba), settle the completed panels only, and
 * answer with every vote. A client that leaves before the panels end pays nothing.
 */
export async function runPairwise(deps: PairwiseDeps, call: PairwiseCall): Promise<MeteredResult<PairwiseResponse>> {
  const { body, requestId, log } = call;
  const runId = call.runId ?? requestId;
  let done = 0;
  const voter = await askPresence(deps.nc, deps.topo.presence("panel-voter"), deps.presenceTimeoutMs);
  if (!voter) throw new VotersUnavailableError();
  // The request's persona; each image brings its own asset_type (or none) to the panel.
  const persona = personaOf(body, call.audience);

  // Filled as panels end, so that work cut short still records the model calls it made.
  const panelUsage: ModelUsage[][] = [];

  return runMetered(
    deps,
    { ...call, kind: "pairwise", units: body.pairs.length },
    async ({ workDeadline, stop, stoppedBy }) => {
      const stopReason = () =>
        stoppedBy() === "client" ? "The request was cancelled before the vote was cast." : `The vote was not cast within the request's time limit of ${Math.round(deps.timeoutMs / 1000)} s.`;
      const session = openPanelSession({ nc: deps.nc, js: deps.js, topo: deps.topo, requestId: runId, deadline: workDeadline, stop, stopReason, traceparent: call.traceparent, log });
      try {
        // Each distinct image is fetched and stored once, however many pairs use it.
        const urls = [...new Set(body.pairs.flatMap((p) => [p.a.image_url, p.b.image_url]))];
        const ctx = { signal: stop, stopReason, intake: deps.intake, storeImage: deps.storeImage, log };
        const preparations = startInOrder(urls, deps.imageConcurrency, (url, index) => prepareImage({ index, url }, ctx));
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
              call.onProgress?.(++done);
              return presentPanel({ pairId: pair.pair_id, aId: pair.a.id, bId: pair.b.id, votes: [], tally: tallyPanel([]), error: `${which} could not be used: ${reason} No vote was cast and the pair is not billed.` });
            }
            const run = await session.run(`p${i + 1}`, persona, a, b);
            panelUsage.push(run.usage);
            call.onProgress?.(++done);
            return presentPanel({ pairId: pair.pair_id, aId: pair.a.id, bId: pair.b.id, votes: run.votes, tally: tallyPanel(run.votes) });
          }),
        );
        const completed = results.filter((r) => r.status === "done").length;
        const used = votersUsed(results.flatMap((r) => r.votes));
        return {
          unitsUsed: completed,
          modelUsage: mergeModelUsage(panelUsage),
          respond: (settled): PairwiseResponse => {
            deps.observe?.(results, settled ? settled.unitsUsed : 0);
            return {
              request_id: requestId,
              pairs: results,
              summary: {
                goal: body.goal,
                platform: persona.platform,
                audience: call.audience.name,
                // The models that voted; when none answered, the ones the voter pool said it runs.
                model: used.voters.length > 0 ? used.voters.join(", ") : (voter.model ?? "unknown"),
                panel_size: PANEL_SIZE,
                pairs_requested: body.pairs.length,
                pairs_completed: completed,
                pairs_failed: body.pairs.length - completed,
                valid_votes: results.reduce((n, r) => n + r.votes.filter((v) => v.valid).length, 0),
                pairwise_evaluations: settled ? settled.unitsUsed : completed,
                credits_used: settled ? settled.creditsUsed : 0,
                credits_remaining: settled ? settled.balance : null,
                models: { generators: [], embedder: null, voters: used.voters, simulated: used.simulated },
              },
            };
          },
        };
      } finally {
        session.close();
      }
    },
    // Our own failure, or the client left before the panels ended: nothing is charged, but the votes cast are recorded.
    () => ({ unitsUsed: 0, modelUsage: mergeModelUsage(panelUsage) }),
  );
}
