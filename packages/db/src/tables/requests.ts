import type { ColumnType, Generated, Selectable } from "kysely";

// Durable requests and webhooks (issue 18). Owned by services/gateway; the dashboard reads them.

type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

export interface ApiRequestsTable {
  request_id: string;
  account_id: string;
  key_id: string;
  /** The ADRANK_NAMESPACE of the deployment that runs it; only that deployment takes it over. */
  namespace: Generated<string>;
  operation: "rank" | "pairwise" | "rank_audiences";
  mode: "sync" | "async";
  state: "running" | "succeeded" | "failed";
  /** sha256 of the body's canonical JSON and the operation: what an Idempotency-Key repeat must match. */
  fingerprint: string;
  /** Asynchronous requests only, while they run: the body, long data URIs replaced by stored-image tokens. */
  request_body: Nullable<string>;
  webhook_url: Nullable<string>;
  /** The ledger reservation the current attempt works under. */
  reservation_id: Nullable<string>;
  reserved_at: Nullable<Date>;
  attempt: Generated<number>;
  /** Which gateway process runs the request, and until when it has promised to renew. */
  lease_owner: Nullable<string>;
  lease_expires_at: Nullable<Date>;
  progress_done: Generated<number>;
  progress_total: number;
  /** Asynchronous requests: the 202 body, replayed to an Idempotency-Key repeat. */
  accepted_body: Nullable<string>;
  result_status: Nullable<number>;
  result_headers: ColumnType<Record<string, string> | null, string | null | undefined, string | null>;
  /** The exact response text, long data URIs replaced by stored-image tokens. */
  result_body: Nullable<string>;
  error: Nullable<string>;
  created_at: Generated<Date>;
  finished_at: Nullable<Date>;
}

export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  request_id: string;
  operation: string;
  fingerprint: string;
  created_at: Generated<Date>;
}

export interface StoredImagesTable {
  /** sha256 hex of the data URI. */
  name: string;
  data: string;
  created_at: Generated<Date>;
}

export interface ApiRequestImagesTable {
  request_id: string;
  image_name: string;
}

export interface WebhookSecretsTable {
  account_id: string;
  /**
   * The `whsec_…` secret sealed under ADRANK_SECRETS_KEY (`v1.…`, the account id
   * authenticated with it); kept because the gateway signs with it (shown to the user once). A
   * row from before migration 2026_11_28_20 holds the plain `whsec_…` until a gateway seals it.
   */
  secret: string;
  /** After a rotation the old secret also signs for a while, so receivers can switch over. Sealed like `secret`. */
  previous_secret: Nullable<string>;
  previous_valid_until: Nullable<Date>;
  created_at: Generated<Date>;
  rotated_at: Nullable<Date>;
}

export interface WebhookDeliveriesTable {
  id: string;
  request_id: string;
  account_id: string;
  url: string;
  state: "pending" | "delivered" | "failed";
  attempts: Generated<number>;
  next_attempt_at: Date;
  lease_expires_at: Nullable<Date>;
  last_status: Nullable<number>;
  last_error: Nullable<string>;
  created_at: Generated<Date>;
  delivered_at: Nullable<Date>;
}

/** When each account last had a delivery claimed: the claim serves the least recently served account first. */
export interface WebhookAccountTurnsTable {
  account_id: string;
  served_at: Date;
}

export interface WebhookAttemptsTable {
  delivery_id: string;
  attempt: number;
  attempted_at: Date;
  status: Nullable<number>;
  error: Nullable<string>;
  duration_ms: number;
}

export interface RequestTables {
  api_requests: ApiRequestsTable;
  idempotency_keys: IdempotencyKeysTable;
  stored_images: StoredImagesTable;
  api_request_images: ApiRequestImagesTable;
  webhook_secrets: WebhookSecretsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_account_turns: WebhookAccountTurnsTable;
}

export type ApiRequestRow = Selectable<ApiRequestsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
