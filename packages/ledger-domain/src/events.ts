import { UsageKind } from "@adrank/contracts";

/** What a reservation is for: scoring evaluations or pairwise panels, each with its own rate window (the contract's UsageKind). */
export type { UsageKind };
export const USAGE_KINDS: readonly UsageKind[] = UsageKind.options;

/**
 * The facts of one account's ledger, in the order of its subject on the LEDGER stream.
 * Every event carries `at` (epoch ms, from the `now` given to `decide`) and enough data to be
 * projected without the account's state.
 */
export interface CreditsGranted {
  type: "CreditsGranted";
  grantId: string;
  credits: number;
  reason?: string;
  at: number;
}

export interface UsageReserved {
  type: "UsageReserved";
  reservationId: string;
  keyId: string;
  kind: UsageKind;
  units: number;
  /** Image URLs the request makes the gateway fetch; written only when above 0, so it is absent from older events (read as 0). */
  fetches?: number;
  at: number;
}

/**
 * What one model cost a request: calls made and tokens in and out. Recorded for cost
 * accounting only: credits are charged by units, never by tokens.
 */
export interface ModelUsage {
  /** "provider:model", e.g. "openai:gpt-5-mini". */
  model: string;
  calls: number;
  /** Every prompt token, cached or not. */
  inputTokens: number;
  outputTokens: number;
  /** Of `inputTokens`, read from the provider's prompt cache; absent when none was reported (and in events written before it existed). */
  cachedInputTokens?: number;
  /** Of `inputTokens`, written to the provider's prompt cache (a premium on Anthropic and Bedrock); absent like `cachedInputTokens`. */
  cacheWriteInputTokens?: number;
}

export interface UsageSettled {
  type: "UsageSettled";
  reservationId: string;
  keyId: string;
  kind: UsageKind;
  /** The units the reservation held; `unitsUsed` of them are charged, the rest released. */
  unitsReserved: number;
  unitsUsed: number;
  reservedAt: number;
  /** One entry per model, none all zero; absent when the settle reported no model usage (and in events written before it existed). */
  modelUsage?: ModelUsage[];
  at: number;
}

export interface ReservationExpired {
  type: "ReservationExpired";
  reservationId: string;
  keyId: string;
  kind: UsageKind;
  /** Released in full: an expired reservation charges nothing. */
  unitsReserved: number;
  reservedAt: number;
  at: number;
}

export type LedgerEvent = CreditsGranted | UsageReserved | UsageSettled | ReservationExpired;
export type LedgerEventType = LedgerEvent["type"];
export const LEDGER_EVENT_TYPES: readonly LedgerEventType[] = ["CreditsGranted", "UsageReserved", "UsageSettled", "ReservationExpired"];
