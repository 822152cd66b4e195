import { describe, expect, it } from "vitest";
import { natsSecurityOptions } from "../src/connect.ts";

describe("natsSecurityOptions", () => {
  it("adds nothing without credentials and a plain address: the local dev NATS has none", () => {
    expect(natsSecurityOptions(["nats://127.0.0.1:4222"], {})).toEqual({});
    expect(natsSecurityOptions(["nats://127.0.0.1:4222"], { NATS_USER: "", NATS_PASSWORD: "", NATS_TLS_CA: "" })).toEqual({});
  });

  it("signs in as the user, with replies on an inbox of its own (the only one its permissions let it read)", () => {
    expect(natsSecurityOptions(["nats://nats:4222"], { NATS_USER: "gateway", NATS_PASSWORD: "s3cret" })).toEqual({ user: "gateway", pass: "s3cret", inboxPrefix: "_INBOX.gateway" });
  });

  it("requires TLS for a tls:// address (nats.js alone would not) and checks the server against NATS_TLS_CA", () => {
    expect(natsSecurityOptions(["nats://a:4222", "TLS://b:4222"], {})).toEqual({ tls: {} });
    expect(natsSecurityOptions(["nats://a:4222"], { NATS_TLS_CA: "/ca.pem" })).toEqual({ tls: { caFile: "/ca.pem" } });
    expect(natsSecurityOptions(["tls://a:4222"], { NATS_TLS_CA: "/ca.pem", NATS_TLS_CERT: "/c.pem", NATS_TLS_KEY: "/k.pem" })).toEqual({ tls: { caFile: "/ca.pem", certFile: "/c.pem", keyFile: "/k.pem" } });
  });

  it("refuses half a setting instead of connecting without it", () => {
    expect(() => natsSecurityOptions([], { NATS_USER: "gateway" })).toThrow(/NATS_USER is "gateway" but NATS_PASSWORD is empty/);
    expect(() => natsSecurityOptions([], { NATS_PASSWORD: "x" })).toThrow(/NATS_PASSWORD is set but NATS_USER is empty/);
    expect(() => natsSecurityOptions([], { NATS_TLS_CERT: "/c.pem" })).toThrow(/NATS_TLS_CERT and NATS_TLS_KEY go together/);
  });

  it("never puts the password in an error message", () => {
    for (const half of [{ NATS_PASSWORD: "hunter2-secret" }, { NATS_PASSWORD: "hunter2-secret", NATS_TLS_CERT: "/c.pem" }]) {
      const err = (() => {
        try {
          natsSecurityOptions([], half);
          return null;
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(Error);
      expect(String(err)).not.toContain("hunter2-secret");
    }
  });
});
