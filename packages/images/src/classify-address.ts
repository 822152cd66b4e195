import ipaddr from "ipaddr.js";

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

export interface AddressPolicy {
  /** TEST-ONLY: also allow 127.0.0.0/8 and ::1 written plainly (never through an embedding). */
  allowLoopback?: boolean;
}

interface Range {
  network: number[];
  prefix: number;
  /** Completes "the address X ..." */
  says: string;
}

function range(cidr: string, says: string): Range {
  const [network, prefix] = ipaddr.parseCIDR(cidr);
  return { network: network.toByteArray(), prefix, says };
}

// Order matters: the first match wins, so single addresses with their own reason come first.
const IPV4_REFUSED: readonly Range[] = [
  range("169.254.169.254/32", "is the cloud instance metadata service"),
  range("168.63.129.16/32", "is Azure's platform service address, reachable only from inside a cloud host"),
  range("255.255.255.255/32", "is the broadcast address"),
  range("0.0.0.0/8", "is in the unspecified 'this network' range 0.0.0.0/8"),
  range("10.0.0.0/8", "is in a private network"),
  range("100.64.0.0/10", "is in the carrier-grade NAT range 100.64.0.0/10, shared by a provider's private networks"),
  range("127.0.0.0/8", "is a loopback address"),
  range("169.254.0.0/16", "is a link-local address"),
  range("172.16.0.0/12", "is in a private network"),
  range("192.0.0.0/24", "is in the reserved IETF protocol range 192.0.0.0/24"),
  range("192.0.2.0/24", "is reserved for documentation"),
  range("192.88.99.0/24", "is in the deprecated 6to4 relay range 192.88.99.0/24"),
  range("192.168.0.0/16", "is in a private network"),
  range("198.18.0.0/15", "is reserved for network benchmarking"),
  range("198.51.100.0/24", "is reserved for documentation"),
  range("203.0.113.0/24", "is reserved for documentation"),
  range("224.0.0.0/4", "is a multicast address"),
  range("240.0.0.0/4", "is in the reserved range 240.0.0.0/4"),
];

const IPV6_REFUSED: readonly Range[] = [
  range("fd00:ec2::254/128", "is the AWS instance metadata service"),
  range("::/128", "is the unspecified address"),
  range("::1/128", "is a loopback address"),
  range("::/96", "is a deprecated IPv4-compatible address"),
  range("::ffff:0:0:0/96", "is an IPv4-translated address"),
  range("64:ff9b:1::/48", "is in the local-use NAT64 range 64:ff9b:1::/48"),
  range("100::/64", "is in the discard-only range 100::/64"),
  range("2001::/23", "is in the IETF special-purpose range 2001::/23 (Teredo and protocol assignments)"),
  range("2001:db8::/32", "is reserved for documentation"),
  range("3fff::/20", "is reserved for documentation"),
  range("fc00::/7", "is in a private network (unique local address)"),
  range("fe80::/10", "is a link-local address"),
  range("fec0::/10", "is a deprecated site-local address"),
  range("ff00::/8", "is a multicast address"),
];

const IPV6_LOOPBACK = range("::1/128", "");
const IPV6_GLOBAL_UNICAST = range("2000::/3", "");
const IPV4_MAPPED = range("::ffff:0:0/96", "");
const NAT64 = range("64:ff9b::/96", "");
const SIX_TO_FOUR = range("2002::/16", "");

function within(bytes: number[], r: Range): boolean {
  if (bytes.length !== r.network.length) return false;
  let bits = r.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((r.network[i] ?? 0) & mask)) return false;
  }
  return true;
}

function dotted(bytes: number[]): string {
  return bytes.join(".");
}

function refuse(ip: string, says: string): AddressVerdict {
  return { allowed: false, reason: `the address ${ip} ${says}` };
}

function classifyIpv4(ip: string, bytes: number[], policy: AddressPolicy): AddressVerdict {
  if (policy.allowLoopback && bytes[0] === 127) return { allowed: true };
  const hit = IPV4_REFUSED.find((r) => within(bytes, r));
  return hit ? refuse(ip, hit.says) : { allowed: true };
}

/** An IPv6 address that carries an IPv4 address is judged by the IPv4 address it reaches. */
function embeddedIpv4(bytes: number[]): { v4: number[]; how: string } | null {
  if (within(bytes, IPV4_MAPPED)) return { v4: bytes.slice(12), how: "maps" };
  if (within(bytes, NAT64)) return { v4: bytes.slice(12), how: "translates (NAT64) to" };
  if (within(bytes, SIX_TO_FOUR)) return { v4: bytes.slice(2, 6), how: "tunnels (6to4) to" };
  return null;
}

function classifyIpv6(ip: string, bytes: number[], policy: AddressPolicy): AddressVerdict {
  const embedded = embeddedIpv4(bytes);
  if (embedded) {
    const v4 = dotted(embedded.v4);
    const hit = IPV4_REFUSED.find((r) => within(embedded.v4, r));
    return hit ? refuse(ip, `${embedded.how} ${v4}, which ${hit.says}`) : { allowed: true };
  }
  if (policy.allowLoopback && within(bytes, IPV6_LOOPBACK)) return { allowed: true };
  const hit = IPV6_REFUSED.find((r) => within(bytes, r));
  if (hit) return refuse(ip, hit.says);
  if (!within(bytes, IPV6_GLOBAL_UNICAST)) return refuse(ip, "is outside the global unicast range 2000::/3");
  return { allowed: true };
}

/**
 * The 16 bytes of IPv6 text, or null. WHATWG URL parsing canonicalizes first because
 * ipaddr.js 2.5 reads "::a.b.c.d" (IPv4-compatible) as "::ffff:a.b.c.d" (IPv4-mapped).
 */
function ipv6Bytes(ip: string): number[] | null {
  if (ip.includes("%") || !ip.includes(":")) return null;
  let canonical: string;
  try {
    canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  return ipaddr.IPv6.isValid(canonical) ? ipaddr.IPv6.parse(canonical).toByteArray() : null;
}

/**
 * Decides whether an image may be fetched from an IP address: only public unicast addresses
 * pass. Accepts plain dotted-decimal IPv4 and IPv6 text (no zone id); any other spelling is
 * refused, because callers must pass what URL parsing or DNS produced, never raw user text.
 *
 * @example
 * classifyAddress("8.8.8.8");  // { allowed: true }
 * classifyAddress("10.0.0.5"); // { allowed: false, reason: "the address 10.0.0.5 is in a private network" }
 */
export function classifyAddress(ip: string, policy: AddressPolicy = {}): AddressVerdict {
  if (ipaddr.IPv4.isValidFourPartDecimal(ip)) {
    return classifyIpv4(ip, ipaddr.IPv4.parse(ip).toByteArray(), policy);
  }
  const v6 = ipv6Bytes(ip);
  if (v6) return classifyIpv6(ip, v6, policy);
  return { allowed: false, reason: `"${ip.slice(0, 64)}" is not a plain IP address` };
}
