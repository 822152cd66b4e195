import { z } from "zod";

export const RequestOperation = z.enum(["rank", "pairwise", "rank_audiences"]).meta({ description: "rank: POST /api/v1/rank; pairwise: POST /api/v1/pairwise; rank_audiences: POST /api/v1/rank/audiences." });
export type RequestOperation = z.output<typeof RequestOperation>;

export const RequestState = z.enum(["running", "succeeded", "failed"]).meta({
  description: "running: accepted and not finished; succeeded: the result is available; failed: the request ended without a result (nothing was charged for what did not run).",
});
export type RequestState = z.output<typeof RequestState>;

export const WebhookState = z.enum(["pending", "delivered", "failed"]).meta({
  description: "pending: not delivered yet (waiting for the request, or retrying); delivered: the receiver answered 2xx; failed: every attempt over the retry period failed.",
});

/**
 * The status of an asynchronous request: the 202 body of POST with `async: true`, and what
 * GET /api/v1/requests/{request_id} answers while the request runs or after it failed. A
 * succeeded request is answered with its result instead.
 */
export const RequestStatus = z
  .object({
    object: z.literal("request"),
    request_id: z.uuid(),
    operation: RequestOperation,
    status: RequestState,
    created_at: z.iso.datetime().meta({ description: "When the request was accepted (ISO 8601, UTC)." }),
    finished_at: z.iso.datetime().nullable(),
    progress: z
      .object({
        done: z.int().min(0),
        total: z.int().min(1),
        unit: z.enum(["assets", "pairs"]),
      })
      .meta({ description: "How much of the work has finished: assets of a rank, pairs of a pairwise request; for rank_audiences, each asset once per audience (total = assets × audiences)." }),
    result_url: z.string().meta({ description: "Where the result is fetched: /api/v1/requests/{request_id}." }),
    webhook: z
      .object({ url: z.string(), state: WebhookState, attempts: z.int().min(0) })
      .nullable()
      .meta({ description: "The webhook delivery of this request, when it has a webhook_url." }),
    error: z.string().nullable().meta({ description: "Why a failed request failed; null otherwise." }),
    queued: z
      .literal(true)
      .optional()
      .meta({
        description:
          "Present (true) while the request waits for a free slot: a gateway runs a bounded number of asynchronous requests at once, and starts a waiting one, oldest first, when one ends. It starts by itself; nothing needs to be sent again. Absent once it runs.",
      }),
  })
  .meta({ description: "The state of an asynchronous request." });
export type RequestStatus = z.output<typeof RequestStatus>;
