import { describe, expect, it } from "vitest";
import { classifyAddress } from "../src/index.ts";

// [address, allowed, words the reason must contain]. Public addresses are only classified here.
const TABLE: [string, boolean, string?][] = [
  ["8.8.8.8", true],
  ["1.1.1.1", true],
  ["93.184.215.14", true],
  ["2606:4700:4700::1111", true],
  ["2a00:1450:4001:82a::200e", true],
  ["::ffff:8.8.8.8", true],
  ["64:ff9b::808:808", true],
  ["2002:0808:0808::1", true],
  ["127.0.0.1", false, "loopback"],
  ["127.255.255.254", false, "loopback"],
  ["::1", false, "loopback"],
  ["0.0.0.0", false, "unspecified"],
  ["0.1.2.3", false, "unspecified"],
  ["::", false, "unspecified"],
  ["10.0.0.5", false, "private network"],
  ["172.16.0.1", false, "private network"],
  ["172.31.255.255", false, "private network"],
  ["192.168.1.1", false, "private network"],
  ["fc00::1", false, "private network"],
  ["fd00::1", false, "private network"],
  ["fd12:3456:789a::1", false, "private network"],
  ["169.254.169.254", false, "metadata"],
  ["169.254.1.1", false, "link-local"],
  ["fe80::1", false, "link-local"],
  ["fd00:ec2::254", false, "AWS instance metadata"],
  ["100.64.0.1", false, "carrier-grade NAT"],
  ["100.127.255.255", false, "carrier-grade NAT"],
  ["224.0.0.1", false, "multicast"],
  ["239.255.255.250", false, "multicast"],
  ["ff02::1", false, "multicast"],
  ["255.255.255.255", false, "broadcast"],
  ["192.0.0.8", false, "reserved IETF"],
  ["192.0.2.10", false, "documentation"],
  ["198.51.100.7", false, "documentation"],
  ["203.0.113.9", false, "documentation"],
  ["198.18.0.1", false, "benchmarking"],
  ["198.19.255.1", false, "benchmarking"],
  ["240.0.0.1", false, "reserved range 240.0.0.0/4"],
  ["2001:db8::1", false, "documentation"],
  ["::ffff:127.0.0.1", false, "maps 127.0.0.1, which is a loopback address"],
  ["::ffff:7f00:1", false, "loopback"],
  ["::ffff:169.254.169.254", false, "metadata"],
  ["::ffff:10.1.2.3", false, "private network"],
  ["64:ff9b::10.0.0.1", false, "NAT64"],
  ["64:ff9b::a9fe:a9fe", false, "metadata"],
  ["2002:c0a8:0101::1", false, "6to4"],
  ["2002:7f00:0001::", false, "loopback"],
  ["2001::1", false, "Teredo"],
  ["::127.0.0.1", false, "IPv4-compatible"],
  ["::8.8.8.8", false, "IPv4-compatible"],
  ["fec0::1", false, "site-local"],
  ["4000::1", false, "outside the global unicast range"],
  ["168.63.129.16", false, "Azure"],
  ["0177.0.0.1", false, "not a plain IP address"],
  ["2130706433", false, "not a plain IP address"],
  ["0x7f.0.0.1", false, "not a plain IP address"],
  ["127.1", false, "not a plain IP address"],
  ["fe80::1%eth0", false, "not a plain IP address"],
  ["localhost", false, "not a plain IP address"],
  ["", false, "not a plain IP address"],
  ["1.2.3.256", false, "not a plain IP address"],
];

describe("classifyAddress", () => {
  it.each(TABLE)("%s -> allowed %s", (ip, allowed, words) => {
    const verdict = classifyAddress(ip);
    expect(verdict.allowed).toBe(allowed);
    if (!verdict.allowed) expect(verdict.reason).toContain(words);
  });

  it("says which address is refused, in a sentence", () => {
    expect(classifyAddress("10.0.0.5")).toEqual({ allowed: false, reason: "the address 10.0.0.5 is in a private network" });
    expect(classifyAddress("169.254.169.254")).toEqual({ allowed: false, reason: "the address 169.254.169.254 is the cloud instance metadata service" });
  });

  it("with the test setting allows only plain loopback, never an embedding of it or anything else", () => {
    const loopback = { allowLoopback: true };
    expect(classifyAddress("127.0.0.1", loopback).allowed).toBe(true);
    expect(classifyAddress("127.8.9.10", loopback).allowed).toBe(true);
    expect(classifyAddress("::1", loopback).allowed).toBe(true);
    expect(classifyAddress("::ffff:127.0.0.1", loopback).allowed).toBe(false);
    expect(classifyAddress("10.0.0.5", loopback).allowed).toBe(false);
    expect(classifyAddress("0.0.0.0", loopback).allowed).toBe(false);
    expect(classifyAddress("169.254.169.254", loopback).allowed).toBe(false);
  });
});
