import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { TRAP, pairWith, rankWith, withTrap } from "./helpers.ts";
import type { HostileCase } from "./types.ts";

// Every URL here is only ever given to the gateway. Each one is refused before any connection
// or DNS query leaves the machine: IP literals (in any spelling URL parsing turns into one) by
// address class, user names before resolution, and host names only when /etc/hosts maps them
// to loopback (no name here is ever sent to a DNS server). A trap listens on TRAP, on
// 127.0.0.1 and ::1, to prove that nothing connected.

const REFUSED_ADDRESS = /public addresses only/;
const USERINFO = /must not carry a user name or password/;

/** Names /etc/hosts maps to loopback, besides localhost: resolved from the file, never by DNS. */
function loopbackNamesFromHosts(): string[] {
  let text: string;
  try {
    text = readFileSync("/etc/hosts", "utf8");
  } catch {
    return [];
  }
  const names = new Set<string>();
  for (const line of text.split("\n")) {
    const [address, ...aliases] = line.replace(/#.*/, "").trim().split(/\s+/);
    if (!address || !(isIP(address) === 4 ? address.startsWith("127.") : address === "::1")) continue;
    for (const name of aliases) if (/^[a-z][a-z0-9-]*$/i.test(name) && name.toLowerCase() !== "localhost") names.add(name.toLowerCase());
  }
  return [...names].slice(0, 3);
}

/** https URLs the gateway must refuse by what they point at, per asset (200, the asset in `errors`). */
const refusedTargets: Array<[string, RegExp]> = [
  // Loopback, as written and in every other spelling of 127.0.0.1 URL parsing accepts.
  [`https://127.0.0.1:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://127.1:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://127.0.1:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://127.0.0.2:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://127.255.255.254:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://127.0.0.1.:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://2130706433:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://0177.0.0.1:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://017700000001:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://0x7f.0.0.1:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://0x7f000001:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://0x7f.1:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://127.000.000.001:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://①②⑦.0.0.1:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://１２７.０.０.１:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://127。0。0。1:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`HTTPS://127.0.0.1:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://127.0.0.\t1:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://127.0.0.1:${TRAP}\\@example.com/ad.png`, REFUSED_ADDRESS],
  [`https://127.0.0.1:${TRAP}#@example.com/ad.png`, REFUSED_ADDRESS],
  [`https://127.0.0.1:${TRAP}?@example.com/ad.png`, REFUSED_ADDRESS],
  [`https://127.0.0.1:${TRAP}/%2e%2e/%2e%2e/ad.png`, REFUSED_ADDRESS],
  [`https://localhost:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://LOCALHOST:${TRAP}/ad.png`, REFUSED_ADDRESS],
  ...loopbackNamesFromHosts().map((name): [string, RegExp] => [`https://${name}:${TRAP}/ad.png`, REFUSED_ADDRESS]),
  [`https://[::1]:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://[0:0:0:0:0:0:0:1]:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://[::ffff:127.0.0.1]:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://[::ffff:7f00:1]:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://[0:0:0:0:0:ffff:127.0.0.1]:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://[::127.0.0.1]:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://[64:ff9b::7f00:1]:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://[2002:7f00:1::]:${TRAP}/ad.png`, REFUSED_ADDRESS],
  // "This host": connecting to 0.0.0.0 or :: reaches loopback on Linux.
  [`https://0.0.0.0:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://0:${TRAP}/ad.png`, REFUSED_ADDRESS],
  [`https://[::]:${TRAP}/ad.png`, REFUSED_ADDRESS],
  // Private networks.
  ["https://10.0.0.1/ad.png", REFUSED_ADDRESS],
  ["https://10.255.255.1/ad.png", REFUSED_ADDRESS],
  ["https://172.16.0.1/ad.png", REFUSED_ADDRESS],
  ["https://172.31.255.254/ad.png", REFUSED_ADDRESS],
  ["https://192.168.0.1/ad.png", REFUSED_ADDRESS],
  ["https://192.168.1.1:8443/ad.png", REFUSED_ADDRESS],
  ["https://100.64.0.1/ad.png", REFUSED_ADDRESS],
  ["https://[::ffff:10.0.0.1]/ad.png", REFUSED_ADDRESS],
  ["https://[fd00::1]/ad.png", REFUSED_ADDRESS],
  ["https://[fc00::1]/ad.png", REFUSED_ADDRESS],
  ["https://[fec0::1]/ad.png", REFUSED_ADDRESS],
  // Link-local and the cloud metadata services, in several spellings.
  ["https://169.254.169.254/latest/meta-data/iam/security-credentials/", REFUSED_ADDRESS],
  ["https://169.254.0.1/ad.png", REFUSED_ADDRESS],
  ["https://2852039166/latest/meta-data/", REFUSED_ADDRESS],
  ["https://0xa9fea9fe/latest/meta-data/", REFUSED_ADDRESS],
  ["https://0251.0376.0251.0376/latest/meta-data/", REFUSED_ADDRESS],
  ["https://[::ffff:169.254.169.254]/latest/meta-data/", REFUSED_ADDRESS],
  ["https://[::ffff:a9fe:a9fe]/latest/meta-data/", REFUSED_ADDRESS],
  ["https://[64:ff9b::a9fe:a9fe]/latest/meta-data/", REFUSED_ADDRESS],
  ["https://[fd00:ec2::254]/latest/meta-data/", REFUSED_ADDRESS],
  ["https://168.63.129.16/metadata/instance", REFUSED_ADDRESS],
  ["https://[fe80::1]/ad.png", REFUSED_ADDRESS],
  // Multicast, broadcast, reserved and documentation ranges.
  ["https://224.0.0.1/ad.png", REFUSED_ADDRESS],
  ["https://255.255.255.255/ad.png", REFUSED_ADDRESS],
  ["https://240.0.0.1/ad.png", REFUSED_ADDRESS],
  ["https://198.18.0.1/ad.png", REFUSED_ADDRESS],
  ["https://192.0.2.1/ad.png", REFUSED_ADDRESS],
  ["https://[2001:db8::1]/ad.png", REFUSED_ADDRESS],
  ["https://[ff02::1]/ad.png", REFUSED_ADDRESS],
  // Credentials in the URL: refused before the host is even resolved.
  [`https://user:pass@127.0.0.1:${TRAP}/ad.png`, USERINFO],
  [`https://example.com@127.0.0.1:${TRAP}/ad.png`, USERINFO],
  ["https://admin:admin@169.254.169.254/latest/meta-data/", USERINFO],
  [`https://:@127.0.0.1:${TRAP}/ad.png`, REFUSED_ADDRESS],
];

/** URLs the contract refuses by form: 422 naming the field. */
const notImageUrls = [
  `http://127.0.0.1:${TRAP}/ad.png`,
  "http://169.254.169.254/latest/meta-data/",
  `hTtP://127.0.0.1:${TRAP}/ad.png`,
  "file:///etc/passwd",
  "file://localhost/etc/passwd",
  `ftp://127.0.0.1:${TRAP}/ad.png`,
  `gopher://127.0.0.1:${TRAP}/_GET%20/`,
  `dict://127.0.0.1:${TRAP}/info`,
  `ws://127.0.0.1:${TRAP}/`,
  `wss://127.0.0.1:${TRAP}/`,
  "ldap://127.0.0.1/dc=example",
  "jar:https://127.0.0.1/a.jar!/ad.png",
  "javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "data:application/octet-stream;base64,iVBORw0KGgo=",
  "blob:https://example.com/0b7e",
  `//127.0.0.1:${TRAP}/ad.png`,
  "/etc/passwd",
  "ad.png",
  "",
  ` https://127.0.0.1:${TRAP}/ad.png`,
  `https:/127.0.0.1:${TRAP}/ad.png`,
  `https:\\\\127.0.0.1:${TRAP}/ad.png`,
  "https://[::1",
  "https://127.0.0.1%00/ad.png",
  "https://[fe80::1%25eth0]/ad.png",
];

const shortName = (url: string) => JSON.stringify(url.length > 70 ? `${url.slice(0, 70)}…` : url);

export const ssrfCases: HostileCase[] = [
  ...refusedTargets.map(([url, error]): HostileCase => ({
    category: "SSRF",
    name: `rank: asset at ${shortName(url)}`,
    path: "/api/v1/rank",
    body: (ctx) => rankWith({ url: withTrap(url, ctx) }),
    expect: { assetErrors: { hostile: error } },
  })),
  ...[`https://127.0.0.1:${TRAP}/a.png`, `https://[::1]:${TRAP}/a.png`, `https://2130706433:${TRAP}/a.png`, `https://localhost:${TRAP}/a.png`, "https://169.254.169.254/latest/meta-data/", "https://10.0.0.1/a.png", "https://[fd00::1]/a.png"].map(
    (url): HostileCase => ({ category: "SSRF", name: `pairwise: image at ${shortName(url)}`, path: "/api/v1/pairwise", body: (ctx) => pairWith({ image_url: withTrap(url, ctx) }), expect: { pairError: REFUSED_ADDRESS } }),
  ),
  { category: "SSRF", name: `pairwise: image with credentials at ${shortName(`https://u:p@127.0.0.1:${TRAP}/a.png`)}`, path: "/api/v1/pairwise", body: (ctx) => pairWith({ image_url: withTrap(`https://u:p@127.0.0.1:${TRAP}/a.png`, ctx) }), expect: { pairError: USERINFO } },
  ...notImageUrls.map((url): HostileCase => ({
    category: "SSRF",
    name: `rank: asset url ${shortName(url)} is not an accepted form`,
    path: "/api/v1/rank",
    body: (ctx) => rankWith({ url: withTrap(url, ctx) }),
    expect: { status: 422, field: "assets[1].url" },
  })),
  ...[`http://127.0.0.1:${TRAP}/a.png`, "file:///etc/passwd", `gopher://127.0.0.1:${TRAP}/_`].map((url): HostileCase => ({
    category: "SSRF",
    name: `pairwise: image_url ${shortName(url)} is not an accepted form`,
    path: "/api/v1/pairwise",
    body: (ctx) => pairWith({ image_url: withTrap(url, ctx) }),
    expect: { status: 422, field: "pairs[0].a.image_url" },
  })),
];
