import { z } from "zod";
import { LIMITS } from "@adrank/contracts";
import { ACCOUNT_RATE_LIMITS, ACCOUNT_REQUEST_LIMITS, RATE_LIMITS } from "@adrank/ledger-domain";
import { envInt, WorkerEnv } from "@adrank/runtime";

/** A flag that is on unless set to "false" or "0". */
const flagOn = z
  .enum(["true", "false", "1", "0"])
  .default("true")
  .transform((v) => v === "true" || v === "1");

/** The ledger's environment, checked once at start. */
export const LedgerEnv = WorkerEnv.extend({
  ADRANK_NAMESPACE: z.string().regex(/^[A-Za-z0-9_-]{0,64}$/, "letters, digits, _ or - only").default(""),
  /** Open reservations older than this are expired and their credits released. */
  LEDGER_RESERVATION_TTL_MS: envInt(300_000, 1_000),
  LEDGER_SWEEP_INTERVAL_MS: envInt(5_000, 100),
  /** Replicas of the LEDGER stream when this service creates it (3 in production). */
  LEDGER_JETSTREAM_REPLICAS: envInt(1, 1, 5),
  LEDGER_CACHE_ACCOUNTS: envInt(10_000, 1),
  LEDGER_APPEND_ATTEMPTS: envInt(10, 1, 100),
  /**
   * Scoring evaluations all keys of one account may use together in any trailing 60 s (the
   * account window above each key's 60). Never below the key limit. Every replica must agree.
   */
  LEDGER_ACCOUNT_RATE_LIMIT_SCORING: envInt(ACCOUNT_RATE_LIMITS.scoring, RATE_LIMITS.scoring, 1_000_000),
  /** The same for pairwise panels. */
  LEDGER_ACCOUNT_RATE_LIMIT_PAIRWISE: envInt(ACCOUNT_RATE_LIMITS.pairwise, RATE_LIMITS.pairwise, 1_000_000),
  /**
   * Requests all keys of one account may make together in any trailing 60 s, counted when
   * reserved whatever they cost: a request settled for 0 (every asset failed intake) counts
   * too. Every replica must agree.
   */
  LEDGER_ACCOUNT_REQUEST_LIMIT: envInt(ACCOUNT_REQUEST_LIMITS.requests, 1, 1_000_000),
  /**
   * Image URLs those requests may make the gateway fetch in any trailing 60 s. At least the
   * URLs one request may carry (20): below that a valid request would be refused as malformed.
   */
  LEDGER_ACCOUNT_FETCH_LIMIT: envInt(ACCOUNT_REQUEST_LIMITS.fetches, LIMITS.assetsMax, 1_000_000),
  /** Whether this replica runs the Postgres projection (all replicas share one consumer). */
  LEDGER_PROJECTION: flagOn,
  /** Whether this replica answers the RPC subjects; off for a replica dedicated to the projection. */
  LEDGER_RPC: flagOn,
  /**
   * A JSON file of model prices (USD per million tokens) over the default table, for the
   * model spend metrics; `npm run model-usage` reads the same variable. Unset: the default
   * table (docs/ledger-mirror.md#prices). A file that cannot be read stops the start.
   */
  ADRANK_MODEL_PRICES_FILE: z.string().optional(),
});
export type LedgerEnv = z.infer<typeof LedgerEnv>;
