import { BEYOND_NOISE_PROBABILITY, TOO_CLOSE_TO_CALL } from "@adrank/contracts";

// How far to trust one answer (issue 34): what p_above_next, too_close_to_call,
// summary.uncertainty, win_probability, the warnings, the receipt and the reliability table
// say, with the formulas behind them, so a reader can check a figure by hand.

const { low, high } = TOO_CLOSE_TO_CALL;

export const HOW_SURE = `## How sure is it

A ranking always puts its creatives in some order, even when their scores are within noise of each other. So every answer also says how far that order can be trusted: a probability for each neighbouring pair of a ranking, a probability with an interval for each panel, warnings about the ways the method is known to fail without showing it, and a receipt of what produced the answer. These fields were added to v1 later. An older server leaves them out, so treat a missing field as "not said", never as "sure".

### p_above_next: will this order hold?

Each asset in \`ranked\` has \`p_above_next\`: the probability that it truly outranks the asset ranked just below it. It is null for the last asset.

**The model.** A score is the mean of 3 repetitions, and one asset's repetitions scatter around its true score. The service measures that scatter over the whole batch as the pooled standard deviation of the repetition scores around their own asset's mean:

    s² = Σ (x − mean of its asset)² / Σ (n − 1),   degrees of freedom df = Σ (n − 1) = 2 per asset

The difference of two means of 3 repetitions then has the standard error s·√(2/3), and

    p_above_next = T_df( (mean_this − mean_next) / (s · √(2/3)) )

where T_df is the distribution function of Student's t with df degrees of freedom. The means are the raw means of the assets' \`details.repetitionScores\`, before any close-pair refinement.

**Worked example.** A batch of three assets has s = 0.2 (df = 6), and the first two have means 3.2 and 3.1. Then t = 0.1 / (0.2 · √(2/3)) = 0.612 and p = T_6(0.612) = 0.72. A lead of 0.1 with this much noise is a 72 % call: roughly three such orders in ten are the wrong way round.

**With a panel.** When close-pair refinement ran a panel on exactly this pair, its valid votes are a second, independent piece of evidence. With k votes for this asset and m against it, the share of voters who prefer it has the posterior Beta(1 + k, 1 + m) from a uniform prior, and the panel's part is the probability that this share is above one half: P = 1 − I_0.5(1 + k, 1 + m), with I the regularized incomplete beta function. The two are combined by multiplying their odds:

    p = p_scores · p_panel / (p_scores · p_panel + (1 − p_scores)(1 − p_panel))

For example, scores that give 0.72 and a 4–1 panel (P = 0.89) combine to 0.95. A \`p_above_next\` below 0.5 says that the evidence favours the asset below: a panel overruled the scores by a narrow vote. Values are rounded to 4 decimals, so 1 means above 0.99995.

### too_close_to_call

\`too_close_to_call\` is true when \`p_above_next\` lies between ${low} and ${high} (both included): the two assets are a coin toss. Treat them as tied. To tell them apart, compare the pair with a panel (\`POST /api/v1/pairwise\`), or rank with \`refine_close_pairs\` on, which puts pairs less than 0.30 apart to a panel (the closest ones, at most 6 per request).

### summary.uncertainty

The noise behind the whole order:

- \`repetition_noise_sd\`: s above; null when no asset was ranked.
- \`degrees_of_freedom\`: Σ (n − 1), 2 per ranked asset.
- \`adjacent_pairs\`: neighbouring pairs, one fewer than the assets ranked.
- \`too_close_to_call\`: how many of those pairs are too close to call.

When most of the adjacent pairs are too close to call, the order is mostly noise, whatever the scores look like.

### win_probability: how sure is a panel?

Every pairwise pair has \`win_probability\`, and so does every pair refined in a ranking (\`summary.close_pair_refinement.results\`). It is about the winner, or about \`a\` when the panel tied, and it is null when no vote counted. With k valid votes for that asset and m against, the share θ of voters who would prefer it has the posterior Beta(1 + k, 1 + m) from a uniform prior:

- \`value\` = (1 + k) / (2 + k + m), the posterior mean share;
- \`ci_low\`, \`ci_high\`: the equal-tailed 95 % interval of that posterior (its 2.5 % and 97.5 % quantiles);
- \`p_better\` = P(θ > 0.5) = 1 − I_0.5(1 + k, 1 + m): the probability that most voters prefer it.

A winner with 4 of 5 votes has \`value\` 0.714, an interval of 0.36–0.96 and \`p_better\` 0.89. **4 of 5 is not 80 % certainty**: five votes cannot tell whether a third or nearly all of the voters prefer the winner, and there is about one chance in nine that most would prefer the other creative. 3 of 5 gives \`p_better\` 0.66, 5 of 5 gives 0.98. \`winRate\` stays the plain share of the votes.

### Warnings

\`summary.warnings\`, on rank, rank-across-audiences and pairwise answers, lists what limits this answer: each item has a stable \`code\` and a \`message\` to show. It is empty when no warning applies. New codes may appear in v1, so show the \`message\` of a code you do not know.

| code | when | what to do |
| --- | --- | --- |
| \`anchors_not_separable\` | Ranking. The scores come from comparing each answer with five anchor statements per reference set (one per level). For at least one reference set, the embedding model finds those five statements more alike than the limit allows: their mean pairwise cosine similarity is above \`summary.method.reference_similarity_limit\` (0.65 by default). Every answer then sits close to every level, so scores drift towards 3 and differences shrink. | Ask the service's operator to check the embedding model. Until then read the order, not the score levels. |
| \`batch_not_separated\` | Ranking of 2 or more assets. A one-way ANOVA over the repetition scores cannot reject "all these assets have the same true score": F = [Σ n·(mean − grand mean)² / (assets − 1)] / s², and its p-value with (assets − 1, Σ (n − 1)) degrees of freedom is above 0.05. The order is mostly the repetitions' own noise. | Treat the assets as tied, put the leading pair to a panel with \`POST /api/v1/pairwise\`, or rank creatives that differ more. |
| \`uniformly_positive\` | Ranking of 2 or more assets. Every final score is 3.5 or more, the top two levels. Synthetic respondents are known to lean positive. | Read the scores as an order, not as approval, and do not compare their levels with another batch's. |
| \`panel_split\` | Ranking: a refinement panel reversed the raw scores' order by a one-vote majority (3–2, or 2–1 and 1–0 when some votes were invalid). Pairwise: a pair's winner won by one vote. | That order rests on a single voter. Check \`p_above_next\` or \`win_probability\` before you act on it, and treat the pair as undecided when it matters. |
| \`persona_made_no_difference\` | Rank creatives for several audiences. Two audiences scored every creative alike within the repetitions' noise: for no creative does the difference between them reach a one-sided probability of ${BEYOND_NOISE_PROBABILITY} (see **Audiences side by side**). The personas changed what the models wrote, not what they decided. | Do not treat the two audiences differently on this answer's evidence. Describe them more sharply, or test the creatives on the real audiences. |
| \`simulated\` | The offline sim model produced some or all of this answer. It reads image statistics and copy heuristics, not a language model's judgement. | Treat the answer as a demonstration of the service, not a prediction. Real models are the operator's configuration. |

### The receipt: summary.method

\`summary.method\` records what produced the answer. It is stored with the request, so \`GET /api/v1/requests/{request_id}\` returns it too.

- \`version\`: the scoring method's version. It changes when the formulas, the reference sets or the prompt layout change.
- \`prompt_templates\`: SHA-256 (first 16 hex digits) of the prompt templates the workers rendered. There is more than one only when workers of different builds answered.
- \`reference_sets\`: each reference set of the goal that the scores averaged over (six per goal), named by the hash of its five statements, with \`mean_similarity\`, the mean pairwise cosine of its anchors under the embedding model. This list is empty for pairwise answers.
- \`reference_similarity_limit\`: the similarity above which \`anchors_not_separable\` is warned. \`embedder\`: the embedding model and the length of its vectors. Both are null when nothing was scored.
- \`generators\` and \`voters\`: every model that answered, with \`versions\` (the exact versions the provider reported answering with), \`temperature\` (the sampling temperature sent; null when none was sent) and \`thinking\` (the reasoning or thinking control sent).

Two answers with the same receipt were produced the same way, and a difference in any field shows what changed. **The same inputs with the same receipt give the same answer only where the provider allows it:**

- The sim model is deterministic: the same request gives the same scores and votes every time.
- A real model sampled at a temperature above 0 (by default the generators run at 0.5 and 1.0 and the voters at 1.0) writes a different answer each time. Scores move by about their repetition noise, and a close order can swap; \`p_above_next\` says how likely that is. Even at temperature 0, providers do not promise identical output.
- \`versions\` can only list what the provider reports. OpenAI and Anthropic return the dated model and Gemini its \`modelVersion\`; each vote also carries its own \`modelVersion\`. Amazon Bedrock reports none, so its \`versions\` is empty and the receipt cannot show a change behind a Bedrock model name.

### Reliability: are the probabilities right?

\`GET /api/v1/calibration\` checks \`p_above_next\` against the outcomes you record (see Measuring fidelity below). Each group has \`reliability\`, a table of five bins of probability: 0.5–0.6, 0.6–0.7, 0.7–0.8, 0.8–0.9 and 0.9–1.0, each including its lower edge, the last one including 1.0.

- A pair is two neighbouring ranks of one ranking, both with a recorded outcome, where the outcomes differ. A \`p_above_next\` below 0.5 is folded to 1 − p and read as a claim about the other order.
- \`n_pairs\`: the pairs in the bin. \`mean_p\`: the mean probability the answers gave them. \`observed\`: the share that the outcomes ordered the way the probability favoured (higher outcome is better).
- \`ci_low\`–\`ci_high\`: the Wilson 95 % interval of \`observed\`. With p̂ = observed, n = n_pairs and z = 1.96, its centre is (p̂ + z²/2n) / (1 + z²/n) and its half-width is z / (1 + z²/n) · √(p̂(1 − p̂)/n + z²/4n²).

The probabilities are calibrated when \`observed\` is close to \`mean_p\` in every bin, or at least when \`mean_p\` lies inside the interval. If \`observed\` is well below \`mean_p\`, the answers are overconfident for your creatives: trust their probabilities less. Every bin is listed; an empty bin has null figures. Only rankings answered with \`p_above_next\` count: outcomes of older rankings are left out of the table.`;
