import { z } from "zod";

export const TOO_CLOSE_TO_CALL = { low: 0.4, high: 0.6 } as const;

export const RankUncertainty = z
  .object({
    repetition_noise_sd: z.number().nullable().meta({
      description: "Pooled standard deviation of the repetition scores around their asset's mean, over every ranked asset: s² = Σ (x − mean of its asset)² / Σ (n − 1). Null when nothing was ranked.",
    }),
    degrees_of_freedom: z.int().min(0).meta({ description: "Σ (n − 1) over the ranked assets: 2 per asset." }),
    adjacent_pairs: z.int().min(0).meta({ description: "Pairs of neighbouring ranks: assets ranked − 1." }),
    too_close_to_call: z.int().min(0).meta({ description: `Neighbouring pairs whose p_above_next lies between ${TOO_CLOSE_TO_CALL.low} and ${TOO_CLOSE_TO_CALL.high}: their order is a coin toss.` }),
  })
  .meta({ description: "The noise behind this ranking's order. Always sent by this version; absent from older servers." });
export type RankUncertainty = z.output<typeof RankUncertainty>;

export const P_ABOVE_NEXT_DESCRIPTION =
  "Probability that this asset truly outranks the one ranked just below it; null for the last one. Model: the difference of two means of 3 repetitions with the batch's pooled repetition noise s (summary.uncertainty) follows a Student t with Σ (n − 1) degrees of freedom, so p = T_df((mean_this − mean_next) / (s · √(2/3))) over the raw repetition means. When close-pair refinement ran a panel on exactly this pair, the panel's votes are independent evidence: with k valid votes for this asset and m against, P = 1 − I_0.5(1 + k, 1 + m) (Beta posterior, uniform prior), and the two are combined by multiplying their odds. Below 0.5 when the evidence says the order shown is more likely wrong (a panel overruled the scores by a narrow vote).";
