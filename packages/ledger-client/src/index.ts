export { createLedgerClient, type LedgerClient, type LedgerClientOptions, type LedgerResult } from "./client.ts";
export { LedgerClientError, LedgerUnavailableError, isLedgerUnavailable, type LedgerUnavailableReason } from "./errors.ts";
export {
  AccountId,
  UsageKindSchema,
  ReserveRequest,
  ReserveReply,
  SettleRequest,
  SettleReply,
  GrantRequest,
  BalanceRequest,
  BalanceView,
  FAILURE_CODES,
  rejectionToRpcError,
  rpcErrorToRejection,
  type RejectionCode,
} from "./wire.ts";
export type { Rejection } from "@adrank/ledger-domain";
