import { describe, expect, it } from "vitest";
import { z } from "zod";
import { loadConfig, proxyTrust, trustProxyHops } from "../src/index.ts";

describe("trustProxyHops and proxyTrust", () => {
  const Env = z.object({ HOPS: trustProxyHops("gateway") });
  const hops = (value: string) => loadConfig(Env, { HOPS: value }).HOPS;

  it("reads a hop count, and refuses `true` with a sentence naming the service", () => {
    expect(hops("1")).toBe(1);
    expect(loadConfig(Env, {}).HOPS).toBe(0);
    expect(() => hops("true")).toThrow(/HOPS: is now the number of proxies in front of the gateway, not a flag/);
  });

  it("trusts exactly that many hops from the socket inward, and none for 0", () => {
    expect(proxyTrust(0)).toBe(false);
    const trust = proxyTrust(2);
    if (!trust) throw new Error("expected a function");
    expect([0, 1, 2, 3].map((hop) => trust("10.0.0.1", hop))).toEqual([true, true, false, false]);
  });
});
