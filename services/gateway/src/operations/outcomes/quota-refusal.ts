import type { OutcomeInput } from "@adrank/contracts";
import type { OutcomeQuotaExceeded } from "@adrank/db/repositories";
import { BodyValidationError } from "../../errors/api-errors.ts";

const count = (n: number) => n.toLocaleString("en-US");

/**
 * The 422 of a batch that would take the account past a quota, in the caller's terms: the
 * first item whose metric name does not fit, or the batch as a whole for the row quota.
 * 422 rather than 429: waiting does not free a quota, changing the request does.
 */
export function quotaRefusal(breach: Pick<OutcomeQuotaExceeded, "quota" | "limit" | "stored" | "adding" | "metric">, items: readonly Pick<OutcomeInput, "metric">[]): BodyValidationError {
  if (breach.quota === "metrics") {
    const i = Math.max(0, items.findIndex((o) => o.metric === breach.metric));
    const field = `outcomes[${i}].metric`;
    return new BodyValidationError(
      `${field} ${JSON.stringify(breach.metric)} would be a new metric name, and this account already records ${count(breach.stored)} of the ${count(breach.limit)} it may have. Record it under an existing metric name. Nothing of the batch was recorded.`,
      field,
    );
  }
  return new BodyValidationError(
    `This batch would add ${count(breach.adding)} outcomes to the ${count(breach.stored)} this account has stored, and an account may store at most ${count(breach.limit)}. Nothing of the batch was recorded; new values for outcomes already stored are still accepted.`,
    "outcomes",
  );
}
