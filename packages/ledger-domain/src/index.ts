export { decide, type Decision, type LedgerCommand, type LedgerCommandType, type GrantCredits, type ReserveUsage, type SettleUsage, type ExpireReservation } from "./decide.ts";
export { evolve, initialState, type AccountState, type OpenReservation } from "./state.ts";
export { balanceOf, availableCredits, windowRemaining, openReservationsOlderThan, type Balance } from "./queries.ts";
export { USAGE_KINDS, LEDGER_EVENT_TYPES } from "./events.ts";
export type { LedgerEvent, LedgerEventType, UsageKind, CreditsGranted, UsageReserved, UsageSettled, ReservationExpired, ModelUsage } from "./events.ts";
export type {
  Rejection,
  RejectionType,
  InsufficientCredits,
  RateLimited,
  RateWindow,
  AlreadySettled,
  UnknownReservation,
  ReservationAlreadyExpired,
  SettleExceedsReservation,
  DuplicateReservation,
  ReservationClosed,
  DuplicateGrant,
  InvalidCommand,
} from "./rejections.ts";
export {
  WINDOW_MS,
  OPEN_RESERVATION_RETRY_MS,
  RATE_LIMITS,
  ACCOUNT_RATE_LIMITS,
  type AccountRateLimits,
  ACCOUNT_REQUEST_LIMITS,
  type AccountRequestLimits,
  MAX_FETCHES_PER_RESERVATION,
  CLOSED_RESERVATION_MEMORY_MS,
  WINDOW_RETENTION_MS,
  MAX_CREDITS_PER_GRANT,
} from "./limits.ts";
export { closedGet, closedSize, type ClosedReservation } from "./closed-index.ts";
export * from "./model-prices/index.ts";
