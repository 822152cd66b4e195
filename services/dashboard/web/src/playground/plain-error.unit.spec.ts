import { describe, expect, it } from "vitest";
import { ApiError } from "../api.ts";
import { plainError } from "./plain-error.ts";

describe("plainError", () => {
  it("gives the API's sentence without its status, naming the image instead of its index", () => {
    const err = new ApiError(422, { error: "assets[1].url must be an https:// URL or a data:image/ URI", field: "assets[1].url" });
    expect(plainError(err, ["a.png", "b.png"])).toBe("The image b.png must be an https:// URL or a data:image/ URI");
    expect(plainError(new ApiError(422, { error: "assets[0].copy_context.headline is too long." }), ["a.png"])).toBe("The headline of a.png is too long.");
  });

  it("calls the form's fields by the form's words", () => {
    expect(plainError(new ApiError(422, { error: "audience.name must be at most 200 characters long." }), [])).toBe("The audience name must be at most 200 characters long.");
  });

  it("names one audience of several as the form counts them, and its field in the form's words", () => {
    const unique = "audiences[1].name must be unique among the request's audiences (compared without regard to case or surrounding spaces)";
    expect(plainError(new ApiError(422, { error: unique }), [])).toBe("The name of audience 2 must be unique among the request's audiences (compared without regard to case or surrounding spaces)");
    expect(plainError(new ApiError(422, { error: "audiences[0].demographics.priceSensitivity must be one of: low, high." }), [])).toBe("The price sensitivity of audience 1 must be one of: low, high.");
    expect(plainError(new ApiError(404, { error: "audiences[2].audience_id names no audience of this account." }), [])).toBe("The saved audience of audience 3 names no audience of this account.");
    expect(plainError(new ApiError(422, { error: "audiences must have at most 5 items." }), [])).toBe("Audiences must have at most 5 items.");
  });

  it("adds how long to wait when the API said so", () => {
    expect(plainError(new ApiError(429, { error: "Too many requests.", retryAfter: 12 }), [])).toBe("Too many requests. Try again in 12 seconds.");
  });

  it("explains a request that never reached the console", () => {
    expect(plainError(new TypeError("fetch failed"), [])).toMatch(/^The request could not be sent/);
  });
});
