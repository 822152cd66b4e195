import { isIPv4, isIPv6 } from "node:net";

/**
 * The address a per-address limit counts: an IPv4 address as is (an IPv4-mapped IPv6 address
 * as its IPv4 address), an IPv6 address by its /64, since one subscriber usually holds a
 * whole /64 and could otherwise take a fresh address for every attempt.
 *
 * @example addressKey("2001:db8:1:2:aaaa::1") // "2001:db8:1:2::/64"
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  const bare = ip.replace(/%.*$/, ""); // a zone id names a local interface, not a subscriber
  if (!isIPv6(bare)) return ip;
  const groups = expandIPv6(bare);
  return `${groups.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(":")}::/64`;
}

/** The eight groups of a valid IPv6 address, with `::` filled in and a dotted IPv4 tail as two groups. */
function expandIPv6(ip: string): string[] {
  let text = ip;
  const tail = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail[1]!.split(".").map(Number) as [number, number, number, number];
    text = text.slice(0, tail.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split("::") as [string, string | undefined];
  const left = head ? head.split(":") : [];
  const right = rest ? rest.split(":") : [];
  const fill = rest === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => "0");
  return [...left, ...fill, ...right];
}
