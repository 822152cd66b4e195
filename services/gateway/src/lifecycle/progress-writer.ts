import type { RequestsRepository } from "@adrank/db/repositories";
import type { WorkLogger } from "./operation.ts";

const MIN_INTERVAL_MS = 250;

/**
 * Records how much of a running request is done, for GET and the CLI's progress line: at
 * most one write per MIN_INTERVAL_MS (the last count always lands), never blocking the work.
 */
export function progressWriter(repo: Pick<RequestsRepository, "setProgress">, requestId: string, log: WorkLogger): (done: number) => void {
  let latest = 0;
  let written = 0;
  let timer: NodeJS.Timeout | null = null;
  let lastWriteAt = 0;
  const write = () => {
    timer = null;
    lastWriteAt = Date.now();
    const value = latest;
    if (value === written) return;
    written = value;
    repo.setProgress(requestId, value).catch((err: unknown) => log.warn({ err, requestId }, "recording progress failed"));
  };
  return (done) => {
    latest = Math.max(latest, done);
    if (timer) return;
    timer = setTimeout(write, Math.max(0, lastWriteAt + MIN_INTERVAL_MS - Date.now()));
    timer.unref();
  };
}
