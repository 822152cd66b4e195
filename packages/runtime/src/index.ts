export { loadConfig, configOrExit, ConfigError, BaseEnv, WorkerEnv, envBool, envFlag, envInt } from "./config.ts";
export { createLogger, REDACTED_PATHS, type Logger } from "./logger.ts";
export { onShutdown } from "./shutdown.ts";
export { serveHealth, type HealthChecks } from "./health-server.ts";
export { startDeadline } from "./deadline.ts";
export { createCalibrationThread, type CalibrationThread } from "./calibration-thread.ts";
