import { describe, expect, it } from "vitest";
import { OutcomeQuotaExceeded } from "@adrank/db/repositories";
import { BodyValidationError } from "../src/errors/api-errors.ts";
import { toHttpFailure } from "../src/errors/to-http.ts";
import { quotaRefusal } from "../src/operations/outcomes/quota-refusal.ts";

const items = [{ metric: "ctr" }, { metric: "revenue" }, { metric: "revenue" }];

describe("quotaRefusal", () => {
  it("names the first item whose new metric name does not fit, as a 422", () => {
    const err = quotaRefusal(new OutcomeQuotaExceeded({ quota: "metrics", limit: 20, stored: 20, adding: 1, metric: "revenue" }), items);
    expect(err).toBeInstanceOf(BodyValidationError);
    expect(err.field).toBe("outcomes[1].metric");
    expect(err.message).toBe(
      'outcomes[1].metric "revenue" would be a new metric name, and this account already records 20 of the 20 it may have. Record it under an existing metric name. Nothing of the batch was recorded.',
    );
    expect(toHttpFailure(err, "id", { bodyLimitBytes: 1 }).status).toBe(422);
  });

  it("refuses the batch as a whole for the row quota, with the counts", () => {
    const err = quotaRefusal(new OutcomeQuotaExceeded({ quota: "rows", limit: 100_000, stored: 99_999, adding: 2 }), items);
    expect(err.field).toBe("outcomes");
    expect(err.message).toContain("would add 2 outcomes to the 99,999 this account has stored, and an account may store at most 100,000");
  });
});
