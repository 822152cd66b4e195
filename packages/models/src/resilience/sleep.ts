import { setTimeout as wait } from "node:timers/promises";

/** Waits `ms`, rejecting as soon as `signal` aborts. Injected wherever a test must not wait. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleep = async (ms, signal) => {
  await wait(ms, undefined, signal ? { signal } : undefined);
};
