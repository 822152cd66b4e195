import { lookup } from "node:dns/promises";

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Turns a host name into every address it may be reached at. Injected in tests. */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** The system resolver (getaddrinfo via `dns.lookup`), all addresses in the order it ranked them. */
export const lookupHostAddresses: HostResolver = async (hostname) => {
  const found = await lookup(hostname, { all: true, order: "verbatim" });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};
