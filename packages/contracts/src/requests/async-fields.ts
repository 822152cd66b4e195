import { z } from "zod";

export const WEBHOOK_URL_MAX_CHARS = 2_048;

/** https, parseable, no credentials in it: where the address points is checked by the gateway (public addresses only). */
export function webhookUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute https:// URL";
  }
  if (url.protocol !== "https:") return "must be an https:// URL";
  if (url.username !== "" || url.password !== "") return "must not carry a user name or password";
  if (url.hash !== "") return "must not carry a #fragment";
  return null;
}

export const WebhookUrl = z
  .string()
  // abort: zod runs the next check even when this one failed, and parsing a 25 MiB URL takes seconds.
  .max(WEBHOOK_URL_MAX_CHARS, { abort: true })
  .superRefine((v, ctx) => {
    const problem = webhookUrlProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .meta({
    description:
      "Only with `async: true`. When the request finishes, its result is POSTed here, signed with the account's webhook secret (header `Adrank-Signature`). https only, and the host must resolve to public addresses, as for images. Delivery is retried with backoff for at least 24 hours.",
  });

/**
 * The optional fields that make a rank or pairwise request asynchronous (new optional request
 * fields are allowed by the versioning rules). Spread into both request objects.
 */
export const asyncFields = {
  async: z.boolean().default(false).meta({
    description: "When true, the service answers `202 Accepted` at once with the request's status and a `Location` header; the result is then fetched with GET /api/v1/requests/{request_id} (or delivered to `webhook_url`). Credits and rate limits are checked before the 202, exactly as for a synchronous request.",
  }),
  webhook_url: WebhookUrl.optional(),
};

/** webhook_url without async: true is refused rather than ignored. */
export function webhookNeedsAsync(body: { async?: boolean; webhook_url?: string | undefined }, ctx: z.RefinementCtx): void {
  if (body.webhook_url !== undefined && body.async !== true) {
    ctx.addIssue({ code: "custom", path: ["webhook_url"], message: "needs \"async\": true; a synchronous request answers with its result instead" });
  }
}
