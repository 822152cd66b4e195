import { describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { pino } from "pino";
import { z } from "zod";
import { BaseEnv, ConfigError, REDACTED_PATHS, envBool, envFlag, envInt, loadConfig } from "../src/index.ts";

describe("loadConfig", () => {
  it("applies defaults and coerces values", () => {
    const cfg = loadConfig(BaseEnv.extend({ PORT: envInt(8080, 1, 65535), DEBUG: envFlag }), { PORT: "9000", DEBUG: "true" });
    expect(cfg).toMatchObject({ NATS_URL: "nats://127.0.0.1:4222", PORT: 9000, DEBUG: true, LOG_LEVEL: "info" });
  });

  it("names every bad variable in one error", () => {
    const schema = BaseEnv.extend({ PORT: envInt(8080, 1, 65535) });
    expect(() => loadConfig(schema, { PORT: "70000", LOG_LEVEL: "loud" })).toThrow(ConfigError);
    try {
      loadConfig(schema, { PORT: "70000", LOG_LEVEL: "loud" });
    } catch (err) {
      expect(String(err)).toMatch(/PORT/);
      expect(String(err)).toMatch(/LOG_LEVEL/);
    }
  });

  it("rejects a required variable that is missing", () => {
    expect(() => loadConfig(z.object({ SECRET: z.string().min(1) }), {})).toThrow(/SECRET/);
  });

  it("reads booleans with a default for unset or empty, and refuses anything else", () => {
    const schema = z.object({ ON: envBool(true), OFF: envFlag });
    expect(loadConfig(schema, {})).toEqual({ ON: true, OFF: false });
    expect(loadConfig(schema, { ON: "", OFF: "" })).toEqual({ ON: true, OFF: false });
    expect(loadConfig(schema, { ON: "false", OFF: "1" })).toEqual({ ON: false, OFF: true });
    expect(loadConfig(schema, { ON: "0", OFF: "true" })).toEqual({ ON: false, OFF: true });
    expect(() => loadConfig(schema, { ON: "no" })).toThrow(/ON:/);
  });
});

describe("logger redaction", () => {
  it("never writes an authorization header, password or image payload", () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
    const log = pino({ redact: { paths: REDACTED_PATHS, censor: "[redacted]" } }, sink);
    log.info({ req: { headers: { authorization: "Bearer agk_live_secret" } }, password: "hunter2", body: { assets: [{ url: "data:image/png;base64,AAAA" }] } }, "x");
    const out = lines.join("");
    expect(out).not.toContain("agk_live_secret");
    expect(out).not.toContain("hunter2");
    expect(out).not.toContain("data:image/png");
    expect(out).toContain("[redacted]");
  });
});
