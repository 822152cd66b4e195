/**
 * How a drift run ends, for a shell or a CronJob: nothing moved (a first run and a new
 * baseline included), an error, a bad flag or setting, or a warning (the models or the
 * ranking moved). Every code but 0 fails the Kubernetes Job, so a warning is seen.
 */
export const DRIFT_EXIT = { unchanged: 0, error: 1, usage: 2, warned: 3 } as const;

export type DriftExitCode = (typeof DRIFT_EXIT)[keyof typeof DRIFT_EXIT];
