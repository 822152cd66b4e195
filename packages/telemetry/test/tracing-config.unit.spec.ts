import { describe, expect, it } from "vitest";
import { tracingRequested } from "../src/index.ts";

describe("tracingRequested", () => {
  it("stays off when nothing asks for traces, so a plain start costs nothing", () => {
    expect(tracingRequested({})).toBe(false);
  });

  it("turns on for an OTLP endpoint, a traces endpoint or an explicit exporter", () => {
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" })).toBe(true);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: "console" })).toBe(true);
  });

  it("honours the standard switches that turn tracing off", () => {
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_SDK_DISABLED: "true" })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_TRACES_EXPORTER: "none" })).toBe(false);
  });
});
