import type { z } from "zod";
import type { PairwiseRequest, PairwiseResponse } from "@adrank/contracts";
import { TRAIL_RUNNERS, TRAIL_RUNNERS_ID } from "./audience.ts";
import { HOSTED_IMAGES, STUDIO_SHOE, STUDIO_SHOE_PNG, SUNRISE_RUN, SUNRISE_RUN_PNG } from "./images.ts";
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
const MODEL = "openai:gpt-5-mini";
const vote = (voterId: string, order: "ab" | "ba", winnerId: string, response: string) => ({
  voterId,
  order,
  winnerId,
  loserId: winnerId === SUNRISE_RUN ? STUDIO_SHOE : SUNRISE_RUN,
  response,
  valid: true,
  model: MODEL,
  simulated: false,
});

export const pairwiseResponseExamples: Examples<z.output<typeof PairwiseResponse>> = {
  panelDone: {
    summary: "A completed panel: 4 of 5 votes for the sunrise creative",
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
      },
    },
  },
};
