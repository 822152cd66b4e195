import type { z } from "zod";
import type { PairwiseRequest, PairwiseResponse } from "@adrank/contracts";
import { TRAIL_RUNNERS, TRAIL_RUNNERS_ID } from "./audience.ts";
import { HOSTED_IMAGES, STUDIO_SHOE, STUDIO_SHOE_PNG, SUNRISE_RUN, SUNRISE_RUN_PNG } from "./images.ts";
import { EXAMPLE_VOTER, pairwiseReceipt, SIM_VOTER, SIMULATED_WARNING } from "./method-receipts.ts";
import type { Examples } from "./named-example.ts";

const inlineAudience: z.input<typeof PairwiseRequest> = {
  pairs: [
    {
      pair_id: "hero-image-test",
      a: { id: SUNRISE_RUN, image_url: SUNRISE_RUN_PNG },
      b: { id: STUDIO_SHOE, image_url: STUDIO_SHOE_PNG },
    },
  ],
  audience: TRAIL_RUNNERS,
  goal: "scroll-stopping",
  platform: "instagram",
};

export const pairwiseRequestExamples: Examples<z.input<typeof PairwiseRequest>> = {
  inlineAudience: {
    summary: "One pair for an inline audience",
    description: "Costs 1 credit when the panel completes (all five votes valid).",
    value: inlineAudience,
  },
  savedAudience: {
    summary: "One pair for a saved audience, each image with its type",
    description: "With asset_type, each voter is told what kind of creative each image is.",
    value: {
      pairs: [
        {
          pair_id: "banner-vs-post",
          a: { id: "mountain-banner", image_url: HOSTED_IMAGES.mountainBanner, asset_type: "Website Banner" },
          b: { id: SUNRISE_RUN, image_url: SUNRISE_RUN_PNG, asset_type: "Social Media Post" },
        },
      ],
      audience_id: TRAIL_RUNNERS_ID,
      goal: "scroll-stopping",
    },
  },
  asynchronous: {
    summary: "One pair, asynchronously",
    description: "Answered `202` at once; fetch the result with getRequest when it is done.",
    value: { ...inlineAudience, async: true },
  },
};

// Seats 1, 3 and 5 see a first ("ab"), seats 2 and 4 see b first ("ba"); "WINNER: 1" names
// whichever image that voter was shown first.
const MODEL = EXAMPLE_VOTER.model;
const vote = (voterId: string, order: "ab" | "ba", winnerId: string, response: string) => ({
  voterId,
  order,
  winnerId,
  loserId: winnerId === SUNRISE_RUN ? STUDIO_SHOE : SUNRISE_RUN,
  response,
  valid: true,
  model: MODEL,
  simulated: false,
  modelVersion: EXAMPLE_VOTER.versions[0]!,
});

const SIM_NOTE = "(Simulated response: written offline by the sim model from measured image statistics and copy heuristics, not by a language model or a real person.)";
const SUNRISE_SEEN = "the colours are vivid, and the contrast is strong";
const SHOE_SEEN = "the layout is clean and uncluttered, and the details are crisp";
/** A sim vote: the sim describes both images in the order shown and names the one it prefers. */
const simVote = (voterId: string, order: "ab" | "ba", winnerId: string) => {
  const [first, second] = order === "ab" ? [SUNRISE_SEEN, SHOE_SEEN] : [SHOE_SEEN, SUNRISE_SEEN];
  const shownFirst = order === "ab" ? SUNRISE_RUN : STUDIO_SHOE;
  const choice = winnerId === shownFirst ? 1 : 2;
  return {
    voterId,
    order,
    winnerId,
    loserId: winnerId === SUNRISE_RUN ? STUDIO_SHOE : SUNRISE_RUN,
    response: [
      `Comparing the two for stopping the scroll: in the first image, ${first}; in the second image, ${second}.`,
      `The ${choice === 1 ? "first" : "second"} image is the stronger choice for me.`,
      SIM_NOTE,
      `WINNER: ${choice}`,
    ].join("\n"),
    valid: true,
    model: SIM_VOTER.model,
    simulated: true,
    modelVersion: SIM_VOTER.versions[0]!,
  };
};

export const pairwiseResponseExamples: Examples<z.output<typeof PairwiseResponse>> = {
  panelDone: {
    summary: "A completed panel: 4 of 5 votes for the sunrise creative",
    description:
      "win_probability reads the 4 votes of 5 as a posterior share of 0.714 with a 95 % interval of 0.3588–0.9567, and a probability of 0.8906 that most voters prefer the sunrise creative: 4 of 5 is not 80 % certainty. A 4–1 win is not a one-vote split and the voter is a real model, so no warning applies.",
    value: {
      request_id: "9a7e2b14-0c53-4e8f-a6d1-3b5c8f02e7a9",
      pairs: [
        {
          pairId: "hero-image-test",
          aId: SUNRISE_RUN,
          bId: STUDIO_SHOE,
          status: "done",
          votes: [
            vote("voter-1", "ab", SUNRISE_RUN, "Image 1 has warm light and open space; it would stop me mid-scroll.\nWINNER: 1"),
            vote("voter-2", "ba", SUNRISE_RUN, "Image 2 shows where I would run in these shoes; Image 1 is a catalogue photo.\nWINNER: 2"),
            vote("voter-3", "ab", SUNRISE_RUN, "The sunrise scene in Image 1 is more striking in a busy feed.\nWINNER: 1"),
            vote("voter-4", "ba", STUDIO_SHOE, "Image 1 shows the product clearly, which matters when comparing shoes.\nWINNER: 1"),
            vote("voter-5", "ab", SUNRISE_RUN, "Image 1 sets a mood; Image 2 looks like every other shoe ad.\nWINNER: 1"),
          ],
          winnerId: SUNRISE_RUN,
          votesFor: 4,
          votesTotal: 5,
          winRate: 0.8,
          consistency: 0.5,
          win_probability: { asset_id: SUNRISE_RUN, value: 0.7143, ci_low: 0.3588, ci_high: 0.9567, p_better: 0.8906 },
        },
      ],
      summary: {
        goal: "scroll-stopping",
        platform: "instagram",
        audience: TRAIL_RUNNERS.name,
        model: MODEL,
        panel_size: 5,
        pairs_requested: 1,
        pairs_completed: 1,
        pairs_failed: 0,
        valid_votes: 5,
        pairwise_evaluations: 1,
        credits_used: 1,
        credits_remaining: 496,
        credits_status: "confirmed",
        models: { generators: [], embedder: null, voters: [MODEL], simulated: false },
        warnings: [],
        method: pairwiseReceipt([EXAMPLE_VOTER]),
      },
    },
  },
  panelSplitSimulated: {
    summary: "A 3–2 split, voted by the sim model",
    description:
      "The same pair answered by the offline sim voter. A 3–2 win gives win_probability 0.5714 with an interval of 0.2228–0.8819, and only 0.6563 that most voters prefer the winner: summary.warnings says `panel_split` (decided by one vote) and `simulated`.",
    value: {
      request_id: "4f1c8e6a-93d2-4b57-8e0f-a2c5d7193b64",
      pairs: [
        {
          pairId: "hero-image-test",
          aId: SUNRISE_RUN,
          bId: STUDIO_SHOE,
          status: "done",
          votes: [
            simVote("voter-1", "ab", SUNRISE_RUN),
            simVote("voter-2", "ba", SUNRISE_RUN),
            simVote("voter-3", "ab", STUDIO_SHOE),
            simVote("voter-4", "ba", STUDIO_SHOE),
            simVote("voter-5", "ab", SUNRISE_RUN),
          ],
          winnerId: SUNRISE_RUN,
          votesFor: 3,
          votesTotal: 5,
          winRate: 0.6,
          consistency: 0.8333,
          win_probability: { asset_id: SUNRISE_RUN, value: 0.5714, ci_low: 0.2228, ci_high: 0.8819, p_better: 0.6563 },
        },
      ],
      summary: {
        goal: "scroll-stopping",
        platform: "instagram",
        audience: TRAIL_RUNNERS.name,
        model: SIM_VOTER.model,
        panel_size: 5,
        pairs_requested: 1,
        pairs_completed: 1,
        pairs_failed: 0,
        valid_votes: 5,
        pairwise_evaluations: 1,
        credits_used: 1,
        credits_remaining: 492,
        credits_status: "confirmed",
        models: { generators: [], embedder: null, voters: [SIM_VOTER.model], simulated: true },
        warnings: [
          SIMULATED_WARNING,
          { code: "panel_split", message: "A pair was decided by one vote: hero-image-test (3–2). Read win_probability before acting on such a winner." },
        ],
        method: pairwiseReceipt([SIM_VOTER]),
      },
    },
  },
};
