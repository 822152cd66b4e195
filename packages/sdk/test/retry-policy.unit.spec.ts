import { describe, expect, it } from "vitest";
import { AuthenticationError, BadRequestError, ConflictError, ConnectionError, InsufficientCreditsError, NotFoundError, RateLimitError, ServerError, ServiceUnavailableError, TimeoutError, UnexpectedResponseError, ValidationError } from "../src/errors.ts";
import { DEFAULT_RETRY_POLICY, retryDelayMs } from "../src/retry-policy.ts";

const details = (status: number) => ({ status, requestId: null, body: null });
const limited = (retryAfter: number) => new RateLimitError("Slow down.", { ...details(429), retryAfter, resetAt: null });
const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100 };

describe("retry policy", () => {
  it("waits exactly Retry-After on 429, and not at all when that is past the cap", () => {
    expect(retryDelayMs(limited(3), 0, 0, policy)).toBe(3_000);
    expect(retryDelayMs(limited(0), 0, 0, policy)).toBe(0);
    expect(retryDelayMs(limited(61), 0, 0, policy)).toBeNull();
    expect(retryDelayMs(limited(5), 0, 0, { ...policy, maxDelayMs: 4_000 })).toBeNull();
  });

  it("waits exactly Retry-After on 409, the same Idempotency-Key still running", () => {
    const conflict = (retryAfter: number) => new ConflictError("Still running.", { ...details(409), retryAfter });
    expect(retryDelayMs(conflict(5), 0, 0, policy)).toBe(5_000);
    expect(retryDelayMs(conflict(5), 0, 0, { ...policy, maxDelayMs: 4_000 })).toBeNull();
    expect(retryDelayMs(conflict(5), 2, 0, policy)).toBeNull();
  });

  it("backs off 5xx, timeouts and lost connections between half and all of a doubling delay", () => {
    for (const error of [new ServerError("x", details(500)), new ServiceUnavailableError("x", details(503)), new ConnectionError("x", details(0)), new TimeoutError("x", details(0))]) {
      expect([0, 1, 2].map((attempt) => retryDelayMs(error, attempt, 0, { ...policy, maxRetries: 5 }, () => 0))).toEqual([50, 100, 200]);
      expect([0, 1, 2].map((attempt) => retryDelayMs(error, attempt, 0, { ...policy, maxRetries: 5 }, () => 1))).toEqual([100, 200, 400]);
    }
    expect(retryDelayMs(new ServerError("x", details(500)), 4, 0, { ...policy, maxRetries: 9, maxDelayMs: 300 }, () => 1)).toBe(300);
  });

  it("never retries other 4xx or an off-contract answer", () => {
    const never = [new BadRequestError("x", details(400)), new AuthenticationError("x", details(401)), new InsufficientCreditsError("x", details(402)), new NotFoundError("x", details(404)), new ValidationError("x", { ...details(422), field: "goal" }), new UnexpectedResponseError("x", details(200))];
    for (const error of never) expect(retryDelayMs(error, 0, 0, policy), error.name).toBeNull();
  });

  it("stops after maxRetries and when the wait would end past the caller's budget", () => {
    const server = new ServerError("x", details(500));
    expect(retryDelayMs(server, 2, 0, policy)).toBeNull();
    expect(retryDelayMs(server, 0, 0, { ...policy, maxRetries: 0 })).toBeNull();
    expect(retryDelayMs(limited(2), 0, 500, { ...policy, maxElapsedMs: 3_000 })).toBe(2_000);
    expect(retryDelayMs(limited(2), 0, 1_500, { ...policy, maxElapsedMs: 3_000 })).toBeNull();
  });
});
