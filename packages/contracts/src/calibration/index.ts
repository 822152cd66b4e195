export { CALIBRATION_MIN_OUTCOMES, CALIBRATION_RESAMPLES, CalibrationQuery, Estimate, CalibrationGroup, MetricCalibration, CalibrationResponse } from "./calibration.ts";
