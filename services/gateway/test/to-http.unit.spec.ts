import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ErrorResponse, RateLimitedResponse } from "@adrank/contracts";
import {
  AudienceNotFoundError,
  BodyValidationError,
  InsufficientCreditsError,
  MalformedBodyError,
  MeteringUnavailableError,
  OutcomeRequestNotFoundError,
  RateLimitedError,
  UnauthenticatedError,
  VotersUnavailableError,
  TooManyCallsError,
  CalibrationUnavailableError,
} from "../src/errors/api-errors.ts";
import { toHttpFailure } from "../src/errors/to-http.ts";

const ID = "0b9f7f43-5c1a-4d57-9d0e-1d2b1c2d3e4f";
const map = (err: unknown) => toHttpFailure(err, ID, { bodyLimitBytes: 25 * 1024 * 1024 });

describe("toHttpFailure", () => {
  it("maps every typed error to the spec's status", () => {
    expect(map(new UnauthenticatedError()).status).toBe(401);
    expect(map(new MalformedBodyError("x")).status).toBe(400);
    expect(map(new BodyValidationError("goal: bad", "goal"))).toMatchObject({ status: 422, body: { error: "goal: bad", field: "goal" } });
    expect(map(new BodyValidationError("bad")).body).not.toHaveProperty("field");
    expect(map(new AudienceNotFoundError("aud_1")).status).toBe(404);
    expect(map(new OutcomeRequestNotFoundError(ID, "outcomes[2].request_id"))).toMatchObject({ status: 404, body: { error: expect.stringContaining(ID), field: "outcomes[2].request_id" } });
    expect(map(new InsufficientCreditsError(1, 4))).toMatchObject({ status: 402, body: { error: expect.stringContaining("up to 4") } });
  });

  it("answers 429 with retryAfter, resetAt and a matching Retry-After header", () => {
    const f = map(new RateLimitedError(17, 1_900_000_000, 0));
    expect(f.status).toBe(429);
    expect(f.body).toMatchObject({ retryAfter: 17, resetAt: 1_900_000_000 });
    expect(f.headers["Retry-After"]).toBe("17");
  });

  it("answers 429 with Retry-After for a free endpoint's window, and 503 with Retry-After for a calibration past its limit", () => {
    const limited = map(new TooManyCallsError("Rate limit reached: this account may ask for 30 calibration reports per minute. Retry after 9 s.", 9, 1_900_000_060));
    expect(limited).toMatchObject({ status: 429, body: { retryAfter: 9, resetAt: 1_900_000_060 }, headers: { "Retry-After": "9" }, severity: "info" });
    expect(RateLimitedResponse.safeParse(limited.body).success).toBe(true);
    const slow = map(new CalibrationUnavailableError(10_000, 5));
    expect(slow).toMatchObject({ status: 503, headers: { "Retry-After": "5" } });
    expect(slow.body.error).toMatch(/^The calibration report did not finish within its limit of 10 s/);
  });

  it("says nothing was charged when the ledger is unavailable", () => {
    const f = map(new MeteringUnavailableError());
    expect(f.status).toBe(500);
    expect(f.body.error).toMatch(/nothing was charged/);
    expect(f.body.request_id).toBe(ID);
  });

  it("hides the message and stack of an unexpected error", () => {
    const f = map(new Error("connection to 10.1.2.3:5432 refused at Pool.connect"));
    expect(f).toMatchObject({ status: 500, body: { error: "internal error", request_id: ID }, severity: "error" });
    expect(JSON.stringify(f.body)).not.toMatch(/10\.1\.2\.3|Pool|at /);
  });

  it("maps fastify's own refusals to 400 and 413", () => {
    expect(map(Object.assign(new Error("x"), { code: "FST_ERR_CTP_BODY_TOO_LARGE", statusCode: 413 }))).toMatchObject({ status: 413, body: { error: expect.stringContaining("25 MiB") } });
    expect(map(Object.assign(new Error("x"), { code: "FST_ERR_CTP_INVALID_MEDIA_TYPE", statusCode: 415 })).status).toBe(400);
    expect(map(Object.assign(new Error("x"), { code: "FST_ERR_CTP_EMPTY_JSON_BODY", statusCode: 400 })).status).toBe(400);
    expect(map(Object.assign(new SyntaxError("Unexpected token } in JSON at position 3"), { statusCode: 400 }))).toMatchObject({ status: 400, body: { error: "The request body is not valid JSON." } });
  });
  it("says plainly when PostgreSQL is unreachable, with no internals, whatever pg calls it", () => {
    for (const err of [Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }), new Error("Connection terminated unexpectedly"), new Error("Query read timeout"), new Error("outer", { cause: Object.assign(new Error("x"), { code: "08006" }) })]) {
      const failure = map(err);
      expect(failure.status).toBe(500);
      expect(failure.body.error).toBe("The service cannot reach its database right now; nothing was charged. Retry in a few seconds.");
      expect(JSON.stringify(failure.body)).not.toMatch(/ECONN|5432|terminated|read timeout/);
    }
    expect(map(Object.assign(new Error("duplicate key"), { code: "23505" })).body.error).toBe("internal error");
  });
  it("answers only bodies the published ErrorResponse documents field by field, 5xx included", () => {
    // Strict: a field the contract does not name (as request_id once was) fails here.
    const documented = (status: number) => z.strictObject((status === 429 ? RateLimitedResponse : ErrorResponse).shape);
    const failures = [
      new UnauthenticatedError(), new MalformedBodyError("x"), new BodyValidationError("goal: bad", "goal"), new AudienceNotFoundError("aud_1"),
      new InsufficientCreditsError(1, 4), new RateLimitedError(17, 1_900_000_000, 0), new VotersUnavailableError(), new MeteringUnavailableError(),
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }), new Error("boom"),
      Object.assign(new Error("x"), { code: "FST_ERR_CTP_BODY_TOO_LARGE", statusCode: 413 }),
    ].map(map);
    expect(failures.filter((f) => f.status >= 500).length).toBeGreaterThanOrEqual(4);
    for (const f of failures) {
      const parsed = documented(f.status).safeParse(f.body);
      expect(parsed.success, `${f.status} ${JSON.stringify(f.body)}: ${parsed.error?.message}`).toBe(true);
    }
  });
});
