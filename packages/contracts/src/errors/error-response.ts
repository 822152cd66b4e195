import { z } from "zod";

// Every field any error body carries is listed here, so the OpenAPI document derived from it
// (additionalProperties: false) describes the real bodies, 5xx included.
export const ErrorResponse = z.object({
  error: z.string().meta({ description: "One sentence a person can read." }),
  field: z.string().optional().meta({ description: "Path of the first offending value, e.g. assets[3].url." }),
  request_id: z.uuid().optional().meta({
    description:
      "On a 500: the id of the failed request, equal to the X-Request-Id header and repeated here for clients and proxies that drop headers; quote it when reporting the failure. On a 409: the id of the running request that holds the Idempotency-Key.",
  }),
  message: z.string().optional().meta({
    description: "Only on the 503 a gateway instance answers while it shuts down (the web framework's own body): repeats error. Retry; another instance answers.",
  }),
  statusCode: z.int().optional().meta({ description: "Only on that shut-down 503: the HTTP status, 503." }),
});
export type ErrorResponse = z.output<typeof ErrorResponse>;

export const RateLimitedResponse = ErrorResponse.extend({
  retryAfter: z.int().min(1).meta({ description: "Seconds to wait before retrying; equals the Retry-After header." }),
  resetAt: z.int().meta({ description: "Unix epoch seconds when the request would fit in the window." }),
});
export type RateLimitedResponse = z.output<typeof RateLimitedResponse>;
