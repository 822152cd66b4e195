import type { z } from "zod";

export const AUDIENCE_ONE_OF = "Exactly one of audience and audience_id must be present.";

/** The spec's one-of rule, reported at `audience` so a client knows where to look. */
export function exactlyOneAudience(value: { audience?: unknown; audience_id?: unknown }, ctx: z.RefinementCtx): void {
  const count = Number(value.audience !== undefined) + Number(value.audience_id !== undefined);
  if (count !== 1) ctx.addIssue({ code: "custom", path: ["audience"], message: AUDIENCE_ONE_OF });
}
