export { createLedgerClient, type LedgerClient, type LedgerClientOptions, type LedgerResult } from "./client.ts";
export { LedgerClientError, LedgerUnavailableError, isLedgerUnavailable, type LedgerUnavailableReason } from "./errors.ts";
export { rejectionToRpcError, rpcErrorToRejection } from "./rejection-codes.ts";
export type { Rejection } from "@adrank/ledger-domain";
