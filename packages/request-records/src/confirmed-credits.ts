/** What the ledger finally charged for a request whose answer went out before it confirmed. */
export interface ConfirmedCredits {
  creditsUsed: number;
  /** The account's available credits right after the charge; null when unknown (nothing was charged). */
  creditsRemaining: number | null;
}

// The three fields as the assemblers write them, next to each other in the summary. A quote
// inside a JSON string is always escaped, so this can only match keys, never text a caller sent.
const PENDING = /"credits_used":(\d+),"credits_remaining":null,"credits_status":"pending"/g;

/**
 * A stored answer (the JSON text as it was sent, or its stored template with images cut out
 * as tokens, which JSON.parse would refuse) whose summary said `credits_status: "pending"`,
 * with the confirmed figures in: `credits_used`, `credits_remaining` and
 * `credits_status: "confirmed"`; every other byte stays as it was. Null when the answer is not
 * pending (already brought up to date, or not a metered answer), so a repeat changes nothing.
 */
export function withConfirmedCredits(text: string, confirmed: ConfirmedCredits): string | null {
  const matches = [...text.matchAll(PENDING)];
  // The summary is an answer's last member: the last match is its.
  const last = matches.at(-1);
  if (last?.index === undefined) return null;
  const fields = `"credits_used":${confirmed.creditsUsed},"credits_remaining":${confirmed.creditsRemaining === null ? "null" : confirmed.creditsRemaining},"credits_status":"confirmed"`;
  return text.slice(0, last.index) + fields + text.slice(last.index + last[0].length);
}
