import { z } from "zod";

/**
 * How sure a panel's result is (issue 34). With a uniform prior on θ, the share of voters who
 * would prefer the asset, k votes for it and m against give the posterior Beta(1 + k, 1 + m).
 */
export const WinProbability = z
  .object({
    asset_id: z.string().meta({ description: "The asset these figures are about: the winner, or `a` when the panel tied." }),
    value: z.number().meta({ description: "Posterior mean share of voters preferring it, (1 + k) / (2 + k + m) for k valid votes for it and m against. 4 of 5 votes gives 0.714, not 0.8." }),
    ci_low: z.number().meta({ description: "Lower end of the equal-tailed 95 % interval of Beta(1 + k, 1 + m)." }),
    ci_high: z.number().meta({ description: "Upper end of that interval. For 4 of 5 votes the interval is 0.36–0.96: five votes cannot pin the share down." }),
    p_better: z.number().meta({ description: "Posterior probability that a majority of voters prefers it, P(θ > 0.5): 0.89 for 4 of 5, 0.66 for 3 of 5, 0.98 for 5 of 5." }),
  })
  .meta({ description: "The panel's preference with its uncertainty, from the valid votes; null when no vote counted." });
export type WinProbability = z.output<typeof WinProbability>;
