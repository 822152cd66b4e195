import { RATE_LIMITS } from "@adrank/ledger-domain";

/**
 * Scoring evaluations one API key may use per trailing minute: the ledger's own window, as the
 * guide's Limits table states it. A rankAcrossAudiences request that could need more than this
 * never fits in one window, so it is refused with a 422 instead of a 429.
 */
export const KEY_EVALUATIONS_PER_MINUTE = RATE_LIMITS.scoring;
