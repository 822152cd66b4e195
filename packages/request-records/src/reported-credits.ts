/** What a stored answer told its caller about credits. */
export interface ReportedCredits {
  creditsUsed: number;
  creditsRemaining: number | null;
  /** null in answers stored before `credits_status` existed. */
  status: "confirmed" | "pending" | null;
}

// The credit fields as the assemblers write them, adjacent in the summary; the status is
// absent from answers stored before it existed. A quote inside a JSON string is always escaped,
// so this matches keys only, never text a caller sent.
const FIELDS = /"credits_used":(\d+),"credits_remaining":(null|\d+)(?:,"credits_status":"(confirmed|pending)")?/g;

/**
 * The credits a stored answer reported (the JSON text, or its stored template with image
 * tokens, which JSON.parse would refuse); null when it carries none. The summary is an
 * answer's last member, so its fields are the last match.
 */
export function reportedCredits(text: string): ReportedCredits | null {
  const last = [...text.matchAll(FIELDS)].at(-1);
  if (!last) return null;
  return {
    creditsUsed: Number(last[1]),
    creditsRemaining: last[2] === "null" ? null : Number(last[2]),
    status: (last[3] as "confirmed" | "pending" | undefined) ?? null,
  };
}
