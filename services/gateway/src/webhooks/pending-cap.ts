import type { WebhooksRepository } from "@adrank/db/repositories";
import { TooManyCallsError } from "../errors/api-errors.ts";

/** What a refused caller is told to wait: deliveries drain at the receiver's pace, not ours. */
export const PENDING_CAP_RETRY_AFTER_S = 60;

/**
 * Refuses a new asynchronous request with a webhook_url while its account already has `cap`
 * deliveries waiting (pending, or still to come from running requests): 429 before any work,
 * reservation or stored row, so the refusal costs nothing. Refusing rather than dropping the
 * oldest delivery: a customer's result notification, once accepted, is never silently lost.
 * Concurrent requests of one account may pass the count together, so the cap can be passed by
 * as many requests as the account has in flight at that moment.
 */
export async function refuseWhenPendingCapReached(repo: Pick<WebhooksRepository, "pendingDeliveries">, accountId: string, cap: number, now: number): Promise<void> {
  if ((await repo.pendingDeliveries(accountId, cap)) < cap) return;
  throw new TooManyCallsError(
    `This account already has ${cap} webhook deliveries waiting to be made (the most one account may have), so this request with webhook_url was refused before any work; nothing was charged. ` +
      `Retry after ${PENDING_CAP_RETRY_AFTER_S} s, once your receiver has taken some (the console's Webhooks page lists them), or send the request without webhook_url and fetch its result with GET /api/v1/requests/{id}.`,
    PENDING_CAP_RETRY_AFTER_S,
    Math.ceil(now / 1000) + PENDING_CAP_RETRY_AFTER_S,
  );
}
