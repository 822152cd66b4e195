import { describe, expect, it } from "vitest";
import { AttemptsExhaustedError, publicReasonOf } from "../../src/lifecycle/failure-reason.ts";
import { BodyValidationError, InsufficientCreditsError, VotersUnavailableError } from "../../src/errors/api-errors.ts";

describe("publicReasonOf", () => {
  it("passes a typed refusal's own sentence to the caller of a failed asynchronous request", () => {
    const refusal = new InsufficientCreditsError(1, 4);
    expect(publicReasonOf(refusal)).toBe(refusal.message);
    expect(publicReasonOf(new VotersUnavailableError())).toMatch(/^No panel voter is available/);
    expect(publicReasonOf(new BodyValidationError("audience.name is too long", "audience.name"))).toBe("audience.name is too long");
  });

  it("says a request given up after its attempts was interrupted, and hides anything else", () => {
    expect(publicReasonOf(new AttemptsExhaustedError())).toMatch(/interrupted 3 times by gateway restarts/);
    // An error merely named like a refusal is not one: its text stays inside.
    const impostor = new Error("SELECT * FROM secrets");
    impostor.name = "InsufficientCreditsError";
    expect(publicReasonOf(impostor)).toBe("The request failed inside the service; nothing was charged for work that did not finish. Submit it again.");
  });
});
