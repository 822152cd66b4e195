import { describe, expect, it } from "vitest";
import { durationText, fetchSamples, prettyJson, progressText } from "./request-words.ts";

describe("request words", () => {
  it("says progress in the request's unit, singular for one", () => {
    expect(progressText({ done: 8, total: 8, unit: "assets" })).toBe("8 of 8 assets");
    expect(progressText({ done: 2, total: 5, unit: "pairs" })).toBe("2 of 5 pairs");
    expect(progressText({ done: 0, total: 1, unit: "assets" })).toBe("0 of 1 asset");
    expect(progressText({ done: 1, total: 1, unit: "pairs" })).toBe("1 of 1 pair");
  });

  it("says how long a request took, and nothing while it runs", () => {
    const at = "2030-01-01T12:00:00.000Z";
    expect(durationText(at, null)).toBeNull();
    expect(durationText(at, "2030-01-01T12:00:00.850Z")).toBe("850 ms");
    expect(durationText(at, "2030-01-01T12:00:12.430Z")).toBe("12.4 s");
    expect(durationText(at, "2030-01-01T12:02:05.200Z")).toBe("2 min 5 s");
  });

  it("indents JSON without changing its values, and leaves other text alone", () => {
    expect(prettyJson('{"a":[1,{"b":"c"}]}')).toBe('{\n  "a": [\n    1,\n    {\n      "b": "c"\n    }\n  ]\n}');
    expect(prettyJson("not json")).toBe("not json");
  });

  it("fetches a request with the key and base URL from the environment, from curl, the SDK and the CLI", () => {
    const [curl, sdk, cli] = fetchSamples("3f2a");
    expect(curl).toEqual({ label: "curl", source: 'curl "$ADRANK_BASE_URL/api/v1/requests/3f2a" \\\n  -H "Authorization: Bearer $ADRANK_API_KEY"' });
    expect(sdk!.source).toContain('await adrank.getRequest("3f2a")');
    expect(cli!.source).toBe("adrank get 3f2a --wait");
  });
});
