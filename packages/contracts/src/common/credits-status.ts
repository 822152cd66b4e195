import { z } from "zod";

/**
 * Whether the ledger had confirmed the charge when the answer was sent. "pending" is rare (the
 * ledger did not answer in time): the charge is recorded durably and applied exactly once, the
 * answer already reports the credits it costs, and GET /api/v1/requests/{request_id} shows the
 * confirmed figures and balance once it is applied.
 */
export const CreditsStatus = z.enum(["confirmed", "pending"]).meta({
  description:
    'Whether the ledger had confirmed the charge when this answer was sent. "confirmed": `credits_used` and `credits_remaining` are the ledger\'s figures. "pending": the ledger did not answer in time; the charge is recorded durably and applied exactly once, `credits_used` is what it costs and `credits_remaining` is null until then. GET /api/v1/requests/{request_id} shows the confirmed figures once applied (usually within seconds). Always sent by this version; absent from older servers.',
});
export type CreditsStatus = z.output<typeof CreditsStatus>;
