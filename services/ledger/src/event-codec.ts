import { z } from "zod";
import { UsageKind as Kind } from "@adrank/contracts";
import type { LedgerEvent } from "@adrank/ledger-domain";
import { decodeJson, encodeJson } from "@adrank/messaging";

const Count = z.number().int().nonnegative();
/** Checked at the RPC edge (bus-contracts' ModelUsage); read back leniently, as written. */
const ModelUsage = z.object({
  model: z.string(),
  calls: Count,
  inputTokens: Count,
  outputTokens: Count,
  // Absent when not reported, and from every event written before they existed.
  cachedInputTokens: Count.optional(),
  cacheWriteInputTokens: Count.optional(),
});

/** The shape of every event on the LEDGER stream; checked whenever an event is read back. */
const LedgerEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("CreditsGranted"), grantId: z.string(), credits: Count, reason: z.string().optional(), at: Count }),
  // `fetches`: only when above 0, and absent from every event written before it existed.
  z.object({ type: z.literal("UsageReserved"), reservationId: z.string(), keyId: z.string(), kind: Kind, units: Count, fetches: Count.optional(), at: Count }),
  z.object({
    type: z.literal("UsageSettled"),
    reservationId: z.string(),
    keyId: z.string(),
    kind: Kind,
    unitsReserved: Count,
    unitsUsed: Count,
    reservedAt: Count,
    /** Absent from settlements without usage and from every event written before it existed. */
    modelUsage: z.array(ModelUsage).optional(),
    at: Count,
  }),
  z.object({ type: z.literal("ReservationExpired"), reservationId: z.string(), keyId: z.string(), kind: Kind, unitsReserved: Count, reservedAt: Count, at: Count }),
]);

export const encodeEvent = (event: LedgerEvent): Uint8Array => encodeJson(event);

/** Throws when the bytes are not a ledger event: the stream is written by this service only. */
export const decodeEvent = (data: Uint8Array): LedgerEvent => LedgerEventSchema.parse(decodeJson(data)) as LedgerEvent;

/** The account id of a subject `…ledger.acct.<id>` of the given topology. */
export function accountOfSubject(subject: string, accountPrefix: string): string {
  if (!subject.startsWith(accountPrefix)) throw new Error(`not a ledger account subject: ${subject}`);
  return subject.slice(accountPrefix.length);
}
