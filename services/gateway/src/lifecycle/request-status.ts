import type { RequestOperation, RequestStatus } from "@adrank/contracts";
import type { RequestView } from "@adrank/db/repositories";

export const resultUrlOf = (requestId: string) => `/api/v1/requests/${requestId}`;

/** What each operation's progress counts: a new operation without an entry fails the typecheck. */
const PROGRESS_UNIT: Record<RequestOperation, RequestStatus["progress"]["unit"]> = { rank: "assets", pairwise: "pairs", rank_audiences: "assets" };

/** The public status of a request (the 202 body, and GET while it runs or after it failed). */
export function requestStatusOf(
  v: Pick<RequestView, "requestId" | "operation" | "state" | "createdAt" | "finishedAt" | "progressDone" | "progressTotal" | "error" | "webhook"> & Partial<Pick<RequestView, "queued">>,
): RequestStatus {
  return {
    object: "request",
    request_id: v.requestId,
    operation: v.operation,
    status: v.state,
    created_at: v.createdAt.toISOString(),
    finished_at: v.finishedAt ? v.finishedAt.toISOString() : null,
    progress: { done: v.progressDone, total: v.progressTotal, unit: PROGRESS_UNIT[v.operation] },
    result_url: resultUrlOf(v.requestId),
    webhook: v.webhook ? { url: v.webhook.url, state: v.webhook.state, attempts: v.webhook.attempts } : null,
    error: v.error,
    // Only while it waits: a running request's status reads as before.
    ...(v.queued && v.state === "running" ? { queued: true as const } : {}),
  };
}
