import { BEYOND_NOISE_PROBABILITY, LIMITS } from "@adrank/contracts";
import { KEY_EVALUATIONS_PER_MINUTE } from "../key-rate-limit.ts";

// rankAcrossAudiences (issue 35): what it answers, the one rule behind "beyond noise" and
// "within noise", what it costs, and why a persona that changed nothing is said out loud.

const p = BEYOND_NOISE_PROBABILITY;
const largest = LIMITS.assetsMax * LIMITS.audiencesMax * 2;

export const AUDIENCES_SIDE_BY_SIDE = `## Audiences side by side

\`POST /api/v1/rank/audiences\` (**Rank creatives for several audiences**) ranks one set of ${LIMITS.assetsMin} to ${LIMITS.assetsMax} creatives for ${LIMITS.audiencesMin} to ${LIMITS.audiencesMax} audiences in one request, and says where the audiences disagree. Each item of \`audiences\` is an inline audience, as in rank, or a saved one, \`{ "audience_id": "…" }\`. Their names label the answer, so they must be unique: names that differ only in case or surrounding spaces count as the same (\`422\`). The body also takes rank's \`goal\`, \`asset_type\`, \`platform\`, \`campaign_type\`, \`refine_close_pairs\`, \`async\` and \`webhook_url\`; any other property is refused with \`422\`. An \`Idempotency-Key\` works as for rank.

**Each ranking is a plain ranking.** \`by_audience[i]\` is exactly what POST /api/v1/rank answers for that audience alone: the same \`ranked\`, \`errors\`, \`p_above_next\`, close-pair refinement and \`summary.warnings\`. It has no \`request_id\` of its own; its \`summary.credits_used\` is that audience's share of the charge, its \`credits_remaining\` is null and it carries no \`credits_status\`, because the balance belongs to the request (the top \`summary\`). The answer adds:

- \`comparison\`: each creative, in the request's order, with its score, raw score and rank under every audience, its \`spread\` (highest minus lowest final score) and its \`best_audience\` and \`worst_audience\`.
- \`reversals\`: pairs of creatives whose order flips between two audiences, largest \`swing\` first.
- \`audience_sensitivity\`: one entry per pair of audiences, with \`rank_correlation\` (Spearman's, over the creatives both scored), \`largest_score_change\` and \`persona_made_no_difference\`.
- \`summary\`: the sums over audiences (\`assets_ranked\`, \`scoring_evaluations\`, \`close_pairs_refined\`, \`credits_used\`), the request's \`credits_remaining\` and \`credits_status\`, and the warnings of every ranking once, plus \`persona_made_no_difference\`.

### Beyond noise, within noise

Across audiences the service compares raw scores (\`score_before_refine\`, the mean of 3 repetitions), because those are the figures whose noise the repetitions measure. For two audiences, s is the repetition noise pooled over both audiences' creatives, as in **How sure is it** (df = Σ (n − 1), 2 per creative per audience). A difference d between two means then has the standard error s·√(2/3), and the one-sided probability that its sign is real is T_df(d / (s·√(2/3))).

- A **reversal** is two creatives a and b that one audience ranks a above b and another ranks b above a, where each audience's order reaches a one-sided probability of ${p} or more (\`p_order\`), and both audiences' final rankings show it. \`gap\` is each audience's lead in score points and \`swing\` their sum. Orders that differ within noise are not a reversal: read them as a tie.
- \`persona_made_no_difference\` is true for a pair of audiences when every creative both scored agrees within noise: for no creative does the difference between the two audiences reach a one-sided probability of ${p}, in either direction. The pair then also gets the warning \`persona_made_no_difference\` in \`summary.warnings\`. It is false when any creative differs beyond noise, or when no creative was scored by both.

**Worked example** (the example answer of Rank creatives for several audiences). Under Bargain hunters the sale tag leads the sunrise run by 0.55; under Skeptics the sunrise run leads by 0.50. The repetitions of both audiences' six creatives give s = 0.1318 with df = 12, so s·√(2/3) = 0.1077, t = 5.11 and 4.64, and \`p_order\` 0.9999 and 0.9997: a reversal, with a swing of 1.05. Skeptics and Weekend trail runners differ by at most 0.05 on any creative: with s = 0.1279, t = 0.05 / 0.1045 = 0.48 and T_12(0.48) = 0.68, far below ${p}. That pair is flagged \`persona_made_no_difference\`.

### Why the flag exists

Studies of language models that play survey respondents report that a persona in the prompt changes what the model says (its wording, the reasons it gives) more than what it decides (its ratings and choices). Two rankings whose rationales read differently are therefore no evidence that the audiences differ. The scores are the evidence, and \`persona_made_no_difference\` says when they do not back the difference that the text suggests. When it is true, do not pick different creatives for these two audiences on the strength of this answer: describe the audiences more sharply, or test the creatives on the real audiences.

When the offline sim model answers (warning \`simulated\`), fixed rules decide how an audience's demographics move a score. They are documented in the repository, in \`docs/sim-personas.md\`.

### What it costs

Every evaluation counts as in rank: each creative is evaluated once per audience, so a request costs up to assets × audiences evaluations, and up to 2 per creative with \`copy_context\` (3 creatives, 2 of them with copy, for 3 audiences: up to 15). They count against the account's credits (\`402\` when the credits cannot cover the most the request can use) and against the key's rate limit of ${KEY_EVALUATIONS_PER_MINUTE} evaluations per trailing minute (\`429\`, as for rank). A request that could need more than ${KEY_EVALUATIONS_PER_MINUTE} evaluations would never fit into one minute, so it is refused at once with \`422\` and \`"field": "audiences"\`, saying how many it needs and what the limit is: ${LIMITS.assetsMax} creatives with copy for ${LIMITS.audiencesMax} audiences need up to ${largest}. Twenty image-only creatives for 3 audiences, or ten with copy, use exactly ${KEY_EVALUATIONS_PER_MINUTE}.

The images are fetched and prepared once for all audiences: each URL is fetched once (and counts once towards the image URLs per minute), and an image that cannot be used fails for every audience and is billed for none.

With \`"async": true\` the answer is \`202\` with the request's status, \`"operation": "rank_audiences"\`; its \`progress\` counts each creative once per audience (\`total\` = assets × audiences). The SDK's call is \`client.rankAcrossAudiences(body, { idempotencyKey })\`. The CLI's \`rank\` ranks for every audience it is given: \`--audience-name\` and \`--audience-id\` are repeatable, e.g. \`adrank rank a.png b.png --audience-name "Trail runners" --audience-name "New parents"\`, and \`--audiences audiences.json\` reads inline audiences with descriptions and demographics from a file.`;
