export { asyncFields, webhookNeedsAsync, webhookUrlProblem, WebhookUrl, WEBHOOK_URL_MAX_CHARS } from "./async-fields.ts";
export { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX_CHARS, IDEMPOTENCY_KEY_TTL_HOURS, REQUEST_RETENTION_DAYS, idempotencyKeyProblem } from "./idempotency-key.ts";
export { RequestOperation, RequestState, RequestStatus, WebhookState } from "./request-status.ts";
