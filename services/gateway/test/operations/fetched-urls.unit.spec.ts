import { describe, expect, it } from "vitest";
import { fetchedUrlsOf } from "../../src/operations/shared/fetched-urls.ts";

describe("image URLs a request makes us fetch (the account's fetch window)", () => {
  it("counts each distinct https URL once, and no data URI", () => {
    expect(fetchedUrlsOf(["https://cdn.example/a.png", "https://cdn.example/b.png", "https://cdn.example/a.png", "data:image/png;base64,AAAA", "DATA:image/gif;base64,R0lG"])).toBe(2);
    expect(fetchedUrlsOf([])).toBe(0);
  });
});
