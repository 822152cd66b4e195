import { z } from "zod";
import { Identifier } from "../common/identifier.ts";

// Observed outcomes (issue 19): what a creative of a past ranking did in the world, so the
// account can measure how well the scores predicted it (GET /api/v1/calibration).

/** At most this many outcomes per POST: a day's export of a large account fits in a few calls. */
export const OUTCOMES_PER_REQUEST_MAX = 500;

/**
 * Per-account quotas (gateway defaults; OUTCOME_METRICS_MAX and OUTCOME_ROWS_MAX change them):
 * a batch that would store a metric name or an outcome beyond them is refused whole (422).
 * Calibration is read from these rows, so they bound what one account can make it load.
 */
export const OUTCOME_METRICS_PER_ACCOUNT = 20;
export const OUTCOMES_PER_ACCOUNT = 100_000;

/** Metric names are short snake_case words, so that `ctr` and `CTR ` are never two metrics. */
export const METRIC_NAME_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;

export const MetricName = z.string().regex(METRIC_NAME_PATTERN, { message: "must be 1 to 40 lowercase letters, digits or underscores, starting with a letter (e.g. ctr, conversion_rate)" });

export const OutcomeInput = z
  .strictObject({
    request_id: z.uuid().meta({ description: "The request_id of a succeeded rank request of this account." }),
    asset_id: Identifier.meta({ description: "The asset_id of a ranked asset of that request (the `id` it was sent with)." }),
    metric: MetricName.meta({ description: "What was measured, e.g. `ctr` or `conversion_rate`. Higher must mean better." }),
    value: z.number().refine(Number.isFinite, { message: "must be a finite number" }).meta({ description: "The observed value; higher is better." }),
    impressions: z.int().min(0).max(1e12).optional().meta({ description: "How many impressions the value was measured over, when known." }),
  })
  .meta({ description: "One observed outcome of one ranked asset." });
export type OutcomeInput = z.output<typeof OutcomeInput>;

export const RecordOutcomesRequest = z
  .strictObject({ outcomes: z.array(OutcomeInput).min(1).max(OUTCOMES_PER_REQUEST_MAX) })
  .meta({ description: `1 to ${OUTCOMES_PER_REQUEST_MAX} outcomes. The batch is recorded whole or not at all.` });
export type RecordOutcomesRequest = z.output<typeof RecordOutcomesRequest>;

export const OutcomeChange = z.enum(["created", "updated", "unchanged"]).meta({
  description: "created: first value for this (request_id, asset_id, metric); updated: it replaced a different value; unchanged: the same value and impressions were already recorded.",
});
export type OutcomeChange = z.output<typeof OutcomeChange>;

export const RecordedOutcome = z
  .object({
    request_id: z.uuid(),
    asset_id: z.string(),
    metric: z.string(),
    value: z.number(),
    impressions: z.int().nullable(),
    goal: z.string().meta({ description: "The goal of the ranking the asset was scored in." }),
    score: z.number().meta({ description: "The asset's final score in that ranking (after close-pair refinement)." }),
    score_before_refine: z.number().meta({ description: "Its raw score, before refinement (equal to score when refinement did not change it)." }),
    simulated: z.boolean().meta({ description: "True when the ranking was scored by the offline sim model." }),
    change: OutcomeChange,
    recorded_at: z.iso.datetime().meta({ description: "When this value was last written (ISO 8601, UTC)." }),
  })
  .meta({ description: "An outcome as stored, with the score it is compared with." });
export type RecordedOutcome = z.output<typeof RecordedOutcome>;

export const RecordOutcomesResponse = z
  .object({
    created: z.int().min(0),
    updated: z.int().min(0),
    unchanged: z.int().min(0),
    outcomes: z.array(RecordedOutcome).meta({ description: "Every outcome of the request, in the order sent." }),
  })
  .meta({ description: "What the batch changed." });
export type RecordOutcomesResponse = z.output<typeof RecordOutcomesResponse>;
