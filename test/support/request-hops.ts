import type { ReceivedSpan } from "./otlp-receiver.ts";
import { percentile } from "./stats.ts";

/** One hop of a single-asset rank request as its trace shows it; ms. */
export interface HopTimes {
  total: number;
  hops: Record<HopName, number>;
}

/** The hops in request order, with what each covers. */
export const HOPS = [
  ["http-receive", "HTTP: request received and headers parsed, up to the key check"],
  ["key-check", "key check (cached look-up, sha256 compare)"],
  ["body-read", "HTTP: body read"],
  ["validation", "validation: JSON parse, zod, audience, plan"],
  ["reserve", "ledger reserve (gateway's view; the ledger's own part below)"],
  ["image", "image intake and store (by content hash)"],
  ["publish", "job publish (until JetStream's ack)"],
  ["queue", "job waiting and pulled by a scorer (from publish)"],
  ["scorer", "scorer: image stats, sim (6 samples), embeddings, result publish"],
  ["join", "result delivered, joined and scored; refinement skipped"],
  ["settle", "ledger settle (gateway's view)"],
  ["store", "answer stored in PostgreSQL (waiting for a grouped insert included)"],
  ["response", "response assembled and sent"],
] as const;
export type HopName = (typeof HOPS)[number][0];

const ns = (s: string) => BigInt(s);
const ms = (a: bigint, b: bigint) => Number(b - a) / 1e6;

/**
 * The hops of one traced single-asset rank request, or null when its trace is incomplete
 * (spans arrive in batches; a request that failed has no settle or no job). Span starts
 * carry millisecond resolution in the OpenTelemetry JS SDK (durations are exact), so a gap
 * between two spans is good to about a millisecond in one trace and better in a mean.
 */
export function rankHops(spans: ReceivedSpan[]): HopTimes | null {
  const one = (pred: (s: ReceivedSpan) => boolean) => spans.find(pred);
  const root = one((s) => s.service === "gateway" && s.kind === 2 && s.parentSpanId === "");
  const auth = one((s) => s.service === "gateway" && s.name === "authenticate");
  const validate = one((s) => s.service === "gateway" && s.name === "validate rank request");
  const reserve = one((s) => s.service === "gateway" && s.kind === 3 && s.name === "ledger reserve");
  const image = one((s) => s.service === "gateway" && s.name === "prepare image");
  const publish = one((s) => s.service === "gateway" && s.kind === 4);
  const job = one((s) => s.service === "scorer" && s.kind === 5 && s.name === "score job");
  const settle = one((s) => s.service === "gateway" && s.kind === 3 && s.name === "ledger settle");
  if (!root || !auth || !validate || !reserve || !image || !publish || !job || !settle) return null;
  const start = (s: ReceivedSpan) => ns(s.startTimeUnixNano);
  const end = (s: ReceivedSpan) => ns(s.endTimeUnixNano);
  const dur = (s: ReceivedSpan) => ms(start(s), end(s));
  // The answer's store: the wait for a write slot, the pool checkout and the (grouped) insert.
  const stored = one((s) => s.service === "gateway" && s.name === "store answer");
  const store = stored ? dur(stored) : 0;
  const hops: Record<HopName, number> = {
    "http-receive": ms(start(root), start(auth)),
    "key-check": dur(auth),
    "body-read": ms(end(auth), start(validate)),
    validation: dur(validate),
    reserve: dur(reserve),
    image: dur(image),
    publish: dur(publish),
    queue: ms(start(publish), start(job)),
    scorer: dur(job),
    join: ms(end(job), start(settle)),
    settle: dur(settle),
    store,
    response: ms(end(settle), end(root)) - store,
  };
  return { total: dur(root), hops };
}

/** The ledger's own time inside reserve and settle (its server spans), for the table's notes. */
export function ledgerShare(spans: ReceivedSpan[]): { reserve: number; settle: number } | null {
  const server = (name: string) => spans.find((s) => s.service === "ledger" && s.kind === 2 && s.name === name);
  const r = server("ledger reserve");
  const s = server("ledger settle");
  if (!r || !s) return null;
  return { reserve: ms(ns(r.startTimeUnixNano), ns(r.endTimeUnixNano)), settle: ms(ns(s.startTimeUnixNano), ns(s.endTimeUnixNano)) };
}

export interface HopRow {
  name: string;
  what: string;
  mean: number;
  p50: number;
  p99: number;
  /** Share of the mean total. */
  share: number;
}

/** Mean, p50 and p99 of each hop over many traced requests. */
export function hopTable(samples: HopTimes[]): { rows: HopRow[]; total: HopRow } {
  const stat = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return { mean: xs.reduce((a, b) => a + b, 0) / xs.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  };
  const total = stat(samples.map((s) => s.total));
  const rows = HOPS.map(([name, what]) => {
    const s = stat(samples.map((x) => x.hops[name]));
    return { name, what, ...s, share: s.mean / total.mean };
  });
  return { rows, total: { name: "total", what: "the gateway's server span, first byte in to last byte out", ...total, share: 1 } };
}
