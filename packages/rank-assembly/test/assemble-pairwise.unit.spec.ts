import { describe, expect, it } from "vitest";
import { PairwiseResponse, type PairwiseRequest } from "@adrank/contracts";
import { PANEL_SEATS, presentPanel, tallyPanel, type CastVote, type PresentedPanel, type Side } from "@adrank/panel-domain";
import type { VoteReceipt } from "@adrank/bus-contracts";
import { METHOD_VERSION } from "@adrank/ssr";
import { assemblePairwiseResponse, billedPanelsOf, type Settlement } from "../src/index.ts";

/** The receipt part of a summary whose voters sent no receipt. */
const NO_RECEIPT = { version: METHOD_VERSION, prompt_templates: [], reference_sets: [], reference_similarity_limit: null, embedder: null, generators: [], voters: [] };

const REQUEST_ID = "3c9a1f2e-5b6d-4e7f-8a9b-0c1d2e3f4a5b";
const GPT = "openai:gpt-4o";

type Pair = PairwiseRequest["pairs"][number];

function pair(pairId: string, aId: string, bId: string): Pair {
  return { pair_id: pairId, a: { id: aId, image_url: `https://img.example/${aId}.png` }, b: { id: bId, image_url: `https://img.example/${bId}.png` } };
}

/** The vote cast from seat `seat` (0-4), as the voter reports it. */
function vote(seat: number, winner: Side, model = GPT, simulated?: boolean): CastVote {
  const { voterId, order } = PANEL_SEATS[seat]!;
  const firstShown = (order === "ab") === (winner === "a");
  return { voterId, order, winner, response: firstShown ? "Image 1" : "Image 2", model, ...(simulated === undefined ? {} : { simulated }) };
}

/** A seat whose model call failed: no model answered, so the vote names none. */
function unanswered(seat: number): CastVote {
  const { voterId, order } = PANEL_SEATS[seat]!;
  return { voterId, order, winner: null, response: "", invalidReason: "the model call failed" };
}

/** A panel's result exactly as the gateway builds it from the votes cast. */
function panel(p: Pair, votes: CastVote[], error?: string): PresentedPanel {
  return presentPanel({ pairId: p.pair_id, aId: p.a.id, bId: p.b.id, votes, tally: tallyPanel(votes), ...(error === undefined ? {} : { error }) });
}

function assemble(pairs: Pair[], results: PresentedPanel[], settlement: Settlement, presenceModel: string | undefined, voterReceipts: VoteReceipt[] = []): PairwiseResponse {
  const response = assemblePairwiseResponse({
    requestId: REQUEST_ID,
    request: { goal: "click-through-rate", pairs },
    platform: "instagram",
    audienceName: "Runners",
    results,
    presenceModel,
    settlement,
    voterReceipts,
  });
  // Every assembled body must satisfy the public contract's response schema.
  const checked = PairwiseResponse.safeParse(response);
  if (!checked.success) throw new Error(`not a PairwiseResponse: ${JSON.stringify(checked.error.issues)}`);
  return response;
}

describe("assemblePairwiseResponse", () => {
  it("answers two completed, settled panels with every vote and the ledger's figures", () => {
    const pairs = [pair("p1", "x", "y"), pair("p2", "u", "w")];
    const results = [
      // a wins 4 to 1: all three ab votes and one of two ba votes, so consistency = 1 - |1 - 0.5|.
      panel(pairs[0]!, [vote(0, "a"), vote(1, "a"), vote(2, "a"), vote(3, "b"), vote(4, "a")]),
      panel(pairs[1]!, [vote(0, "b"), vote(1, "b"), vote(2, "b"), vote(3, "b"), vote(4, "b")]),
    ];
    const receipt: VoteReceipt = { model: GPT, versions: ["gpt-4o-2024-08-06"], temperature: 0.7, thinking: null, promptHash: "0123456789abcdef" };
    const response = assemble(pairs, results, { units: 2, creditsUsed: 2, creditsRemaining: 98, status: "confirmed" }, GPT, [receipt, { ...receipt, versions: ["gpt-4o-2024-11-20"] }]);
    const v = (voterId: string, order: string, response: string, winnerId: string, loserId: string) => ({ voterId, order, response, model: GPT, winnerId, loserId, valid: true });
    expect(JSON.stringify(response)).toBe(
      JSON.stringify({
        request_id: REQUEST_ID,
        pairs: [
          {
            pairId: "p1",
            aId: "x",
            bId: "y",
            status: "done",
            votes: [
              v("voter-1", "ab", "Image 1", "x", "y"),
              v("voter-2", "ba", "Image 2", "x", "y"),
              v("voter-3", "ab", "Image 1", "x", "y"),
              v("voter-4", "ba", "Image 1", "y", "x"),
              v("voter-5", "ab", "Image 1", "x", "y"),
            ],
            votesTotal: 5,
            winnerId: "x",
            votesFor: 4,
            winRate: 0.8,
            consistency: 0.5,
            // Beta(5, 2): mean 5/7, 95 % interval 0.36–0.96, P(θ > 0.5) = 57/64.
            win_probability: { asset_id: "x", value: 0.7143, ci_low: 0.3588, ci_high: 0.9567, p_better: 0.8906 },
          },
          {
            pairId: "p2",
            aId: "u",
            bId: "w",
            status: "done",
            votes: [
              v("voter-1", "ab", "Image 2", "w", "u"),
              v("voter-2", "ba", "Image 1", "w", "u"),
              v("voter-3", "ab", "Image 2", "w", "u"),
              v("voter-4", "ba", "Image 1", "w", "u"),
              v("voter-5", "ab", "Image 2", "w", "u"),
            ],
            votesTotal: 5,
            winnerId: "w",
            votesFor: 5,
            winRate: 1,
            consistency: 1,
            // Beta(6, 1): mean 6/7, interval from 0.025^(1/6) = 0.54, P(θ > 0.5) = 63/64.
            win_probability: { asset_id: "w", value: 0.8571, ci_low: 0.5407, ci_high: 0.9958, p_better: 0.9844 },
          },
        ],
        summary: {
          goal: "click-through-rate",
          platform: "instagram",
          audience: "Runners",
          model: GPT,
          panel_size: 5,
          pairs_requested: 2,
          pairs_completed: 2,
          pairs_failed: 0,
          valid_votes: 10,
          pairwise_evaluations: 2,
          credits_used: 2,
          credits_remaining: 98,
          credits_status: "confirmed",
          models: { generators: [], embedder: null, voters: [GPT], simulated: false },
          warnings: [],
          // Two receipts of one model and settings: one entry with both reported versions.
          method: { ...NO_RECEIPT, prompt_templates: ["0123456789abcdef"], voters: [{ model: GPT, versions: ["gpt-4o-2024-08-06", "gpt-4o-2024-11-20"], temperature: 0.7, thinking: null }] },
        },
      }),
    );
  });

  it("answers a pair whose image could not be used as an error, unbilled, beside a settled one", () => {
    const pairs = [pair("p1", "x", "y"), pair("p2", "x", "z")];
    const error = "Image b (z) could not be used: The image could not be fetched. No vote was cast and the pair is not billed.";
    const results = [panel(pairs[0]!, [vote(0, "a"), vote(1, "a"), vote(2, "a"), vote(3, "b"), vote(4, "a")]), panel(pairs[1]!, [], error)];
    const response = assemble(pairs, results, { units: 1, creditsUsed: 1, creditsRemaining: 41, status: "confirmed" }, GPT);
    expect(JSON.stringify(response.pairs[1])).toBe(JSON.stringify({ pairId: "p2", aId: "x", bId: "z", status: "error", votes: [], votesTotal: 0, win_probability: null, error }));
    expect(JSON.stringify(response.summary)).toBe(
      JSON.stringify({
        goal: "click-through-rate",
        platform: "instagram",
        audience: "Runners",
        model: GPT,
        panel_size: 5,
        pairs_requested: 2,
        pairs_completed: 1,
        pairs_failed: 1,
        valid_votes: 5,
        pairwise_evaluations: 1,
        credits_used: 1,
        credits_remaining: 41,
        credits_status: "confirmed",
        models: { generators: [], embedder: null, voters: [GPT], simulated: false },
        warnings: [],
        method: NO_RECEIPT,
      }),
    );
  });

  it("reports an unconfirmed settlement as the gateway gives it: the completed panels, nothing charged, the balance unknown", () => {
    const pairs = [pair("p1", "x", "y"), pair("p2", "u", "w")];
    // p2 is partial: 3 valid votes (2 for u), 2 model calls failed; it is neither completed nor billed.
    const results = [
      panel(pairs[0]!, [vote(0, "a"), vote(1, "a"), vote(2, "a"), vote(3, "b"), vote(4, "a")]),
      panel(pairs[1]!, [vote(0, "a"), unanswered(1), vote(2, "b"), unanswered(3), vote(4, "a")]),
    ];
    const response = assemble(pairs, results, { units: 1, creditsUsed: 1, creditsRemaining: null, status: "pending" }, GPT);
    expect(response.pairs[1]!.status).toBe("partial");
    expect(JSON.stringify(response.summary)).toBe(
      JSON.stringify({
        goal: "click-through-rate",
        platform: "instagram",
        audience: "Runners",
        model: GPT,
        panel_size: 5,
        pairs_requested: 2,
        pairs_completed: 1,
        pairs_failed: 1,
        valid_votes: 8,
        pairwise_evaluations: 1,
        credits_used: 1,
        credits_remaining: null,
        credits_status: "pending",
        models: { generators: [], embedder: null, voters: [GPT], simulated: false },
        // p2's winner has 2 of 3 valid votes: one voter decided it.
        warnings: [{ code: "panel_split", message: "A pair was decided by one vote: p2 (2–1). Read win_probability before acting on such a winner." }],
        method: NO_RECEIPT,
      }),
    );
  });

  it("takes the billed evaluations from the ledger's settlement, not from its own count", () => {
    const pairs = [pair("p1", "x", "y")];
    const results = [panel(pairs[0]!, [vote(0, "a"), vote(1, "a"), vote(2, "a"), vote(3, "b"), vote(4, "a")])];
    const { summary } = assemble(pairs, results, { units: 0, creditsUsed: 0, creditsRemaining: 7, status: "confirmed" }, GPT);
    expect([summary.pairs_completed, summary.pairwise_evaluations, summary.credits_used, summary.credits_remaining]).toEqual([1, 0, 0, 7]);
  });

  it("names the model the voter pool runs when no voter answered, else 'unknown'", () => {
    const pairs = [pair("p1", "x", "y")];
    const results = [panel(pairs[0]!, [0, 1, 2, 3, 4].map(unanswered))];
    const fromPresence = assemble(pairs, results, { units: 0, creditsUsed: 0, creditsRemaining: 10, status: "confirmed" }, "openai:gpt-4o-mini");
    expect(JSON.stringify(fromPresence.pairs[0]!.error)).toBe(JSON.stringify("No valid vote was cast (the model call failed)."));
    expect(JSON.stringify(fromPresence.summary)).toBe(
      JSON.stringify({
        goal: "click-through-rate",
        platform: "instagram",
        audience: "Runners",
        model: "openai:gpt-4o-mini",
        panel_size: 5,
        pairs_requested: 1,
        pairs_completed: 0,
        pairs_failed: 1,
        valid_votes: 0,
        pairwise_evaluations: 0,
        credits_used: 0,
        credits_remaining: 10,
        credits_status: "confirmed",
        models: { generators: [], embedder: null, voters: [], simulated: false },
        warnings: [],
        method: NO_RECEIPT,
      }),
    );
    expect(assemble(pairs, results, { units: 0, creditsUsed: 0, creditsRemaining: 10, status: "confirmed" }, undefined).summary.model).toBe("unknown");
  });

  it("says the response is simulated when the sim voted", () => {
    const sim = "sim:sim-voter";
    const pairs = [pair("p1", "x", "y")];
    const results = [panel(pairs[0]!, [0, 1, 2, 3, 4].map((seat) => vote(seat, "b", sim, true)))];
    const response = assemble(pairs, results, { units: 1, creditsUsed: 1, creditsRemaining: 0, status: "confirmed" }, sim);
    expect(JSON.stringify(response.pairs[0]!.votes[0])).toBe(JSON.stringify({ voterId: "voter-1", order: "ab", response: "Image 2", model: sim, simulated: true, winnerId: "y", loserId: "x", valid: true }));
    expect(JSON.stringify(response.summary)).toBe(
      JSON.stringify({
        goal: "click-through-rate",
        platform: "instagram",
        audience: "Runners",
        model: sim,
        panel_size: 5,
        pairs_requested: 1,
        pairs_completed: 1,
        pairs_failed: 0,
        valid_votes: 5,
        pairwise_evaluations: 1,
        credits_used: 1,
        credits_remaining: 0,
        credits_status: "confirmed",
        models: { generators: [], embedder: null, voters: [sim], simulated: true },
        warnings: [{ code: "simulated", message: "The offline sim model produced this answer: it reads image statistics and copy heuristics, not a language model's judgement. Treat it as a demonstration, not a prediction." }],
        method: NO_RECEIPT,
      }),
    );
  });

  it("joins a mixed panel's voter models in the order they first voted", () => {
    const claude = "anthropic:claude-sonnet";
    const pairs = [pair("p1", "x", "y"), pair("p2", "u", "w")];
    const results = [
      panel(pairs[0]!, [vote(0, "a", claude), vote(1, "a"), vote(2, "a", claude), vote(3, "a"), vote(4, "a", claude)]),
      panel(pairs[1]!, [vote(0, "b"), vote(1, "b", claude), vote(2, "b"), vote(3, "b", claude), vote(4, "b")]),
    ];
    const { summary } = assemble(pairs, results, { units: 2, creditsUsed: 2, creditsRemaining: 3, status: "confirmed" }, GPT);
    expect(summary.model).toBe(`${claude}, ${GPT}`);
    expect(JSON.stringify(summary.models)).toBe(JSON.stringify({ generators: [], embedder: null, voters: [claude, GPT], simulated: false }));
  });

  it("passes a null platform through and the request's goal as given", () => {
    const pairs = [pair("p1", "x", "y")];
    const response = assemblePairwiseResponse({ requestId: REQUEST_ID, request: { goal: "purchase-intent", pairs }, platform: null, audienceName: "A", results: [panel(pairs[0]!, [])], presenceModel: undefined, settlement: { units: 0, creditsUsed: 0, creditsRemaining: null, status: "confirmed" }, voterReceipts: [] });
    expect(PairwiseResponse.parse(response).summary.platform).toBeNull();
    expect(response.summary.goal).toBe("purchase-intent");
  });
});

describe("billedPanelsOf", () => {
  it("counts only the completed panels", () => {
    expect(billedPanelsOf([{ status: "done" }, { status: "partial" }, { status: "error" }, { status: "done" }])).toBe(2);
    expect(billedPanelsOf([])).toBe(0);
  });
});
