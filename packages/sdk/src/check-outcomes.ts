import { parseWith, RecordOutcomesRequest } from "@adrank/contracts";
import type { RecordOutcomesInput } from "./client.ts";

export type OutcomesCheck = { ok: true; value: RecordOutcomesInput } | { ok: false; error: string; field: string | null };

/**
 * The API's own schema check of an `outcomes.record` body, run before any call: the same
 * sentence and `field` a 422 would carry (e.g. `outcomes[3].value`), for tools that read
 * outcomes from a file and want to point at the bad row. What needs the account's data (is
 * the request_id one of its rankings, was the asset ranked) only the server can check.
 *
 * @example
 * checkOutcomes({ outcomes: [{ request_id: "7f3c2a91-5b6e-4d08-9c4a-1e2f8b7d6a35", asset_id: "a.png", metric: "ctr", value: "1.8%" }] });
 * // { ok: false, error: "outcomes[0].value must be a number.", field: "outcomes[0].value" }
 */
export function checkOutcomes(request: unknown): OutcomesCheck {
  const parsed = parseWith(RecordOutcomesRequest, request);
  if (parsed.ok) return { ok: true, value: parsed.value };
  return { ok: false, error: parsed.error.body.error, field: parsed.error.body.field ?? null };
}
