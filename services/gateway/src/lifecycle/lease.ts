import type { RequestsRepository } from "@adrank/db/repositories";
import type { WorkLogger } from "./operation.ts";

export interface HeldLease {
  stop(): void;
}

/**
 * Renews the lease on a running request every third of its length, so that only a dead
 * owner lets it run out. A failed renewal (a database blip) is logged and tried again at the
 * next beat; a lost lease (another process took over) is logged once, and the work runs on:
 * whichever attempt finishes first stores the answer.
 */
export function holdLease(repo: Pick<RequestsRepository, "renewLease">, requestId: string, owner: string, leaseMs: number, log: WorkLogger): HeldLease {
  let lost = false;
  const timer = setInterval(() => {
    if (lost) return;
    repo.renewLease(requestId, owner, leaseMs).then(
      (held) => {
        if (!held) {
          lost = true;
          log.warn({ requestId }, "lost the lease on a running request; another gateway took it over");
        }
      },
      (err: unknown) => log.warn({ err, requestId }, "renewing a request's lease failed; trying again"),
    );
  }, Math.max(50, Math.floor(leaseMs / 3)));
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
