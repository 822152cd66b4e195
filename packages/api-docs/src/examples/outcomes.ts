import type { z } from "zod";
import type { RecordedOutcome, RecordOutcomesRequest, RecordOutcomesResponse } from "@adrank/contracts";
import type { Examples } from "./named-example.ts";
import { rankResponseExamples } from "./rank.ts";

// What the creatives of the rank examples did once they ran: the outcomes a client records
// for them, and what recordOutcomes answers. Scores, goals and the simulated flag are those
// of the rankings, as the service copies them when it records an outcome.

type Outcome = z.input<typeof RecordOutcomesRequest>["outcomes"][number];
type Recorded = z.output<typeof RecordedOutcome>;

const ranking = rankResponseExamples.ranked!.value;
const failedOne = rankResponseExamples.assetFailed!.value;

/** The ranking the outcome examples report on: the first rank example's answer. */
export const OUTCOMES_REQUEST_ID = ranking.request_id;
/** The metric of the first example, which the calibration samples ask for. */
export const EXAMPLE_METRIC = "ctr";

/** The id of a ranked asset of the examples (each example asset has one). */
const idOf = (asset: { asset_id: string | null } | undefined): string => {
  if (!asset?.asset_id) throw new Error("an outcome example names an asset without an id");
  return asset.asset_id;
};
const [sunrise, shoe] = ranking.ranked.map(idOf);
const mountain = idOf(failedOne.ranked[0]);

const ctr: Outcome[] = [
  { request_id: OUTCOMES_REQUEST_ID, asset_id: sunrise!, metric: EXAMPLE_METRIC, value: 0.0184, impressions: 48_210 },
  { request_id: OUTCOMES_REQUEST_ID, asset_id: shoe!, metric: EXAMPLE_METRIC, value: 0.0121, impressions: 51_877 },
];

export const recordOutcomesRequestExamples: Examples<z.input<typeof RecordOutcomesRequest>> = {
  clickThroughRates: {
    summary: "The click-through rates of a ranking's two creatives",
    description: "Each creative of the first rank example, with the rate it got and the impressions it was measured over. Sending the same batch again changes nothing.",
    value: { outcomes: ctr },
  },
  conversionRates: {
    summary: "Conversion rates of two rankings, without impressions",
    description: "A batch may mix rankings and metrics. impressions is optional. Each (request_id, asset_id, metric) keeps one value: a new value replaces the old one.",
    value: {
      outcomes: [
        { request_id: OUTCOMES_REQUEST_ID, asset_id: sunrise!, metric: "conversion_rate", value: 0.031 },
        { request_id: OUTCOMES_REQUEST_ID, asset_id: shoe!, metric: "conversion_rate", value: 0.024 },
        { request_id: failedOne.request_id, asset_id: mountain, metric: "conversion_rate", value: 0.019 },
      ],
    },
  },
};

const recorded = (outcome: Outcome, change: Recorded["change"], recordedAt: string): Recorded => {
  const asset = ranking.ranked.find((a) => a.asset_id === outcome.asset_id)!;
  return {
    request_id: outcome.request_id,
    asset_id: outcome.asset_id,
    metric: outcome.metric,
    value: outcome.value,
    impressions: outcome.impressions ?? null,
    goal: ranking.summary.goal,
    score: asset.score,
    score_before_refine: asset.score_before_refine,
    simulated: ranking.summary.models?.simulated ?? false,
    change,
    recorded_at: recordedAt,
  };
};

const FIRST_RECORDED = "2025-09-21T07:15:02.381Z";

export const recordOutcomesResponseExamples: Examples<z.output<typeof RecordOutcomesResponse>> = {
  created: {
    summary: "Both outcomes recorded",
    description: "The answer to the first example: each outcome with the score it will be compared with, taken from the ranking.",
    value: { created: 2, updated: 0, unchanged: 0, outcomes: ctr.map((o) => recorded(o, "created", FIRST_RECORDED)) },
  },
  unchanged: {
    summary: "The same batch sent again",
    description: "Recording is idempotent: the same value and impressions change nothing, and recorded_at stays when it was first written. A retry is always safe.",
    value: { created: 0, updated: 0, unchanged: 2, outcomes: ctr.map((o) => recorded(o, "unchanged", FIRST_RECORDED)) },
  },
  updated: {
    summary: "A week later, over more impressions",
    description: "New values replace the old ones for the same (request_id, asset_id, metric).",
    value: {
      created: 0,
      updated: 2,
      unchanged: 0,
      outcomes: [
        recorded({ ...ctr[0]!, value: 0.0179, impressions: 112_604 }, "updated", "2025-09-28T07:15:44.902Z"),
        recorded({ ...ctr[1]!, value: 0.0126, impressions: 120_338 }, "updated", "2025-09-28T07:15:44.902Z"),
      ],
    },
  },
};
