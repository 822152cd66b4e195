import { z } from "zod";

// Validity warnings (issue 34): the known ways a synthetic-respondent answer fails silently,
// said on the answer itself so a reader never has to infer them from the figures.

/** Every code this version sends. New codes may appear in v1: show the `message` of a code you do not know. */
export const WARNING_CODES = ["anchors_not_separable", "batch_not_separated", "uniformly_positive", "panel_split", "simulated", "persona_made_no_difference"] as const;
export type WarningCode = (typeof WARNING_CODES)[number];

export const AnswerWarning = z
  .object({
    code: z.string().meta({
      description: `A stable code: ${WARNING_CODES.map((c) => `\`${c}\``).join(", ")}. New codes may appear in v1; show \`message\` for one you do not know.`,
    }),
    message: z.string().meta({ description: "One or two plain sentences saying what was found and what it means for this answer." }),
  })
  .meta({ description: "Something about how this answer was produced that limits what it can be trusted for." });
export type AnswerWarning = z.output<typeof AnswerWarning>;

export const AnswerWarnings = z.array(AnswerWarning).meta({
  description:
    "Validity warnings; empty when none applies. `anchors_not_separable`: the embedder puts a reference set's five anchor statements too close together, so scores drift towards 3. `batch_not_separated`: the assets' scores differ by no more than the repetitions' own noise (one-way ANOVA over the repetition scores, p > 0.05), so the order is mostly chance. `uniformly_positive`: two or more assets were ranked and every one scored 3.5 or more (the top two levels), the positivity bias synthetic panels are known for. `panel_split`: a one-vote margin decided an order: a refinement panel that reversed the raw scores 3–2 (or 2–1, 1–0 among valid votes), or a pairwise pair won by one vote. `simulated`: the offline sim model answered. `persona_made_no_difference` (rankAcrossAudiences only): two audiences scored every asset alike within noise, so the personas did not change the decision. Always sent by this version; absent from older servers.",
});
