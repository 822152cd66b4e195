import { z } from "zod";

export const ErrorResponse = z.object({
  error: z.string().meta({ description: "One sentence a person can read." }),
  field: z.string().optional().meta({ description: "Path of the first offending value, e.g. assets[3].url." }),
});
export type ErrorResponse = z.output<typeof ErrorResponse>;

export const RateLimitedResponse = ErrorResponse.extend({
  retryAfter: z.int().min(1).meta({ description: "Seconds to wait before retrying; equals the Retry-After header." }),
  resetAt: z.int().meta({ description: "Unix epoch seconds when the request would fit in the window." }),
});
export type RateLimitedResponse = z.output<typeof RateLimitedResponse>;
