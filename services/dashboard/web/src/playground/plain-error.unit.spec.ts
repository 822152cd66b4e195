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

  it("adds how long to wait when the API said so", () => {
    expect(plainError(new ApiError(429, { error: "Too many requests.", retryAfter: 12 }), [])).toBe("Too many requests. Try again in 12 seconds.");
  });

  it("explains a request that never reached the console", () => {
    expect(plainError(new TypeError("fetch failed"), [])).toMatch(/^The request could not be sent/);
  });
});
