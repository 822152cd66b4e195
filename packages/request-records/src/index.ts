export { canonicalJson } from "./canonical-json.ts";
export { tokenizeImages, restoreImages, imageNamesIn, MIN_STORED_IMAGE_CHARS, type TokenizedText } from "./image-tokens.ts";
export { takeoverReservation, type PreviousReservation, type TakeoverReservation } from "./takeover.ts";
export { retryDelayMs, nextAttemptAt, PRODUCTION_SCHEDULE, type WebhookSchedule } from "./webhook-schedule.ts";
export { withConfirmedCredits, type ConfirmedCredits } from "./confirmed-credits.ts";
export { reportedCredits, type ReportedCredits } from "./reported-credits.ts";
