export { OUTCOMES_PER_REQUEST_MAX, METRIC_NAME_PATTERN, MetricName, OutcomeInput, RecordOutcomesRequest, OutcomeChange, RecordedOutcome, RecordOutcomesResponse } from "./outcomes.ts";
