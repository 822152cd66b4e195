import type { OutcomeInput } from "@adrank/contracts";
import { BodyValidationError } from "../../errors/api-errors.ts";

/**
 * One batch gives each (request_id, asset_id, metric) at most one value: two would leave it
 * to chance which one is kept. The second occurrence is named, with the first it repeats.
 */
export function refuseRepeatedOutcomes(items: readonly OutcomeInput[]): void {
  const first = new Map<string, number>();
  items.forEach((item, i) => {
    const key = JSON.stringify([item.request_id, item.asset_id, item.metric]);
    const earlier = first.get(key);
    if (earlier === undefined) {
      first.set(key, i);
      return;
    }
    const field = `outcomes[${i}].metric`;
    throw new BodyValidationError(`${field} repeats outcomes[${earlier}]: the same request_id, asset_id and metric may appear once per batch.`, field);
  });
}
