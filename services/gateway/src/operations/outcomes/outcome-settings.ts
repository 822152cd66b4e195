import type { GatewayConfig } from "../../config.ts";
import { DEFAULT_CALIBRATION_LIMITS, type CalibrationLimits } from "../calibration/route.ts";
import { DEFAULT_OUTCOME_LIMITS, type OutcomeLimits } from "./route.ts";

/** The settings that bound the free outcome and calibration endpoints; each has a default, so route tests may leave them out. */
export type OutcomeSetting = "OUTCOME_METRICS_MAX" | "OUTCOME_ROWS_MAX" | "OUTCOMES_CALLS_PER_MINUTE" | "CALIBRATION_CALLS_PER_MINUTE" | "CALIBRATION_MAX_ROWS" | "CALIBRATION_TIMEOUT_MS";
type Settings = Partial<Pick<GatewayConfig, OutcomeSetting>>;

export const outcomeLimitsOf = (c: Settings): OutcomeLimits => ({
  maxMetrics: c.OUTCOME_METRICS_MAX ?? DEFAULT_OUTCOME_LIMITS.maxMetrics,
  maxRows: c.OUTCOME_ROWS_MAX ?? DEFAULT_OUTCOME_LIMITS.maxRows,
  callsPerMinute: c.OUTCOMES_CALLS_PER_MINUTE ?? DEFAULT_OUTCOME_LIMITS.callsPerMinute,
});

export const calibrationLimitsOf = (c: Settings): CalibrationLimits => ({
  callsPerMinute: c.CALIBRATION_CALLS_PER_MINUTE ?? DEFAULT_CALIBRATION_LIMITS.callsPerMinute,
  maxRows: c.CALIBRATION_MAX_ROWS ?? DEFAULT_CALIBRATION_LIMITS.maxRows,
  timeoutMs: c.CALIBRATION_TIMEOUT_MS ?? DEFAULT_CALIBRATION_LIMITS.timeoutMs,
});
