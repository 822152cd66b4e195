import { describe, expect, it } from "vitest";
import type { HostResolver } from "@adrank/images";
import { checkWebhookUrl } from "../../src/webhooks/check-webhook-url.ts";

/** A DNS stand-in answering from a table; unknown names do not resolve. */
function lookupFrom(table: Record<string, string[]>): HostResolver & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`no such host ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? (6 as const) : (4 as const) }));
  };
  return Object.assign(lookup, { calls });
}

const publicDns = lookupFrom({ "hooks.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"] });
const check = (url: string, allowLoopback = false, lookup: HostResolver = publicDns) => checkWebhookUrl(url, { allowLoopback, lookup });

describe("checkWebhookUrl", () => {
  it("accepts an https URL whose host resolves to public addresses only, on any port", async () => {
    expect(await check("https://hooks.example.com/adrank?token=abc")).toBeNull();
    expect(await check("https://hooks.example.com:8443/adrank")).toBeNull();
    expect(await check("https://93.184.215.14/hook")).toBeNull();
    expect(await check("https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/hook")).toBeNull();
  });

  it("refuses what is not an https URL, before any DNS", async () => {
    const lookup = lookupFrom({ "hooks.example.com": ["93.184.215.14"] });
    expect(await check("http://hooks.example.com/hook", false, lookup)).toBe("webhook_url must be an https:// URL.");
    expect(await check("ftp://hooks.example.com/hook", false, lookup)).toBe("webhook_url must be an https:// URL.");
    expect(await check("hooks.example.com/hook", false, lookup)).toBe("webhook_url must be an absolute https:// URL.");
    expect(await check("https://user:pw@hooks.example.com/hook", false, lookup)).toBe("webhook_url must not carry a user name or password.");
    expect(await check(`https://hooks.example.com/${"a".repeat(2_100)}`, false, lookup)).toBe("webhook_url must be at most 2048 characters long.");
    expect(lookup.calls).toEqual([]);
  });

  it.each([
    ["https://10.0.0.1/hook", "the address 10.0.0.1 is in a private network"],
    ["https://192.168.1.20/hook", "the address 192.168.1.20 is in a private network"],
    ["https://127.0.0.1:8443/hook", "the address 127.0.0.1 is a loopback address"],
    ["https://[::1]/hook", "the address ::1 is a loopback address"],
    ["https://169.254.10.1/hook", "the address 169.254.10.1 is a link-local address"],
    ["https://[fe80::1]/hook", "the address fe80::1 is a link-local address"],
    ["https://169.254.169.254/latest/meta-data", "the address 169.254.169.254 is the cloud instance metadata service"],
    ["https://[fd00:ec2::254]/", "the address fd00:ec2::254 is the AWS instance metadata service"],
    ["https://0x7f000001/hook", "the address 127.0.0.1 is a loopback address"],
    ["https://[::ffff:10.0.0.1]/hook", "the address ::ffff:a00:1 maps 10.0.0.1, which is in a private network"],
  ])("refuses the IP literal in %s", async (url, reason) => {
    expect(await check(url)).toBe(`webhook_url must point at a public address, and ${reason}.`);
  });

  it.each([
    ["internal.example.com", ["10.1.2.3"], "the address 10.1.2.3 is in a private network"],
    ["localhost", ["127.0.0.1", "::1"], "the address 127.0.0.1 is a loopback address"],
    ["metadata.example.com", ["169.254.169.254"], "the address 169.254.169.254 is the cloud instance metadata service"],
    ["link.example.com", ["fe80::5"], "the address fe80::5 is a link-local address"],
  ])("refuses %s, which resolves to %j", async (host, addresses, reason) => {
    const lookup = lookupFrom({ [host]: addresses });
    expect(await check(`https://${host}/hook`, false, lookup)).toBe(`webhook_url must point at public addresses only, and ${host} resolves to one that is not: ${reason}.`);
    expect(lookup.calls).toEqual([host]);
  });

  it("refuses a name that resolves to public addresses and also a private one", async () => {
    const lookup = lookupFrom({ "mixed.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c", "192.168.0.7"] });
    expect(await check("https://mixed.example.com/hook", false, lookup)).toBe(
      "webhook_url must point at public addresses only, and mixed.example.com resolves to one that is not: the address 192.168.0.7 is in a private network.",
    );
  });

  it("refuses a name that does not resolve, or resolves to nothing", async () => {
    expect(await check("https://nowhere.example.com/hook")).toBe("webhook_url's host name nowhere.example.com could not be resolved.");
    expect(await check("https://empty.example.com/hook", false, lookupFrom({ "empty.example.com": [] }))).toBe("webhook_url's host name empty.example.com could not be resolved.");
  });

  it("accepts loopback only with the test setting, and still refuses private addresses with it", async () => {
    const lookup = lookupFrom({ localhost: ["127.0.0.1", "::1"] });
    expect(await check("https://127.0.0.1:9443/hook", true)).toBeNull();
    expect(await check("https://[::1]:9443/hook", true)).toBeNull();
    expect(await check("https://localhost:9443/hook", true, lookup)).toBeNull();
    expect(await check("https://10.0.0.1/hook", true)).toBe("webhook_url must point at a public address, and the address 10.0.0.1 is in a private network.");
    // Loopback reached through an IPv4-mapped address is never allowed (as for images).
    expect(await check("https://[::ffff:127.0.0.1]/hook", true)).toBe("webhook_url must point at a public address, and the address ::ffff:7f00:1 maps 127.0.0.1, which is a loopback address.");
  });
});
