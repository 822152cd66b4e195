import { CALIBRATION_MIN_OUTCOMES, CALIBRATION_RESAMPLES, LIMITS, OUTCOMES_PER_REQUEST_MAX } from "@adrank/contracts";

// The groups the docs page lists operations under, each with what a reader needs before
// calling its operations: the rules of the spec that shape a request and its bill.

export const TAG = { ranking: "Ranking", pairwise: "Pairwise", requests: "Requests", audiences: "Audiences", evaluation: "Evaluation" } as const;

export const TAGS = [
  {
    name: TAG.ranking,
    description: `Score 1 to 20 creatives for an audience persona and goal, and get them back ranked by score.

- Send exactly one of \`audience\` (inline) and \`audience_id\` (saved). The request-level \`asset_type\` applies to every asset that gives none of its own; \`platform\` sets the delivery context, and \`campaign_type\` is used when \`platform\` is omitted.
- An asset without \`copy_context\` gets one evaluation (\`score_layer\`: \`image-only\`). An asset with it is scored as a \`full-ad-package\` and also on its image alone, which gives \`image_only_score\` and \`copy_lift\`.
- Close pairs: with \`refine_close_pairs\` (default \`true\`), assets whose scores differ by less than 0.30 are close pairs; the closest, at most 6 per request, each go to a five-voter panel. When a panel disagrees with the initial order, \`score\` is adjusted, \`score_before_refine\` keeps the raw value and the affected assets carry \`panel_outcome\`. Refinement is reported in \`summary.close_pair_refinement\` and does not change what is billed.
- A creative that cannot be fetched or scored is listed in \`errors\`; the request still succeeds and the creative is not billed.
- How far to trust the order: each asset's \`p_above_next\` (the probability that it truly outranks the next one) and \`too_close_to_call\`, \`summary.uncertainty\`, \`summary.warnings\` and the receipt \`summary.method\`. **How sure is it** in the introduction explains them.
- A request takes at most 120 seconds.
- \`POST /api/v1/rank/audiences\` ranks the same creatives for ${LIMITS.audiencesMin} to ${LIMITS.audiencesMax} audiences in one request: one plain ranking per audience, plus where they disagree beyond noise. **Audiences side by side** in the introduction explains it.`,
  },
  {
    name: TAG.pairwise,
    description: `Compare 1 to 10 explicit pairs of creatives. Each pair gets exactly 5 blinded votes, with the presentation order balanced: 3 voters see a first (\`ab\`) and 2 see b first (\`ba\`). The panel runs on exactly the pairs you name, regardless of any scores.

Every vote comes back with the voter's raw response. A completed panel (\`status\` \`done\`) costs 1 credit; \`partial\` and \`error\` pairs are not billed. \`audience\` and \`audience_id\` work as in ranking.

Five votes decide little on their own: each pair's \`win_probability\` gives the share of voters preferring the winner with its 95 % interval, and \`p_better\`, the probability that most voters prefer it (4 of 5 votes give 0.89, not 0.8). \`summary.warnings\` says when a pair was won by one vote (\`panel_split\`); see **How sure is it** in the introduction.`,
  },
  {
    name: TAG.requests,
    description: `Every ranking (for one audience or several) and pairwise comparison that succeeded is kept for at least 30 days under its \`request_id\` (the \`X-Request-Id\` of its response): fetch it again with its id, from the account that made it.

- A request sent with \`"async": true\` is answered \`202\` at once with its status; it runs on the server. Fetch it here: \`202\` with its progress while it runs, then \`200\` with its result, the same body a synchronous request would have answered (or, when it failed, \`200\` with its status: \`"status": "failed"\` and \`error\`). A \`webhook_url\` also gets the result POSTed when it is done (see **Webhooks** in the introduction).
- An id that is unknown, malformed or of another account answers \`404\`.
- Fetching a request costs no credits.`,
  },
  {
    name: TAG.audiences,
    description: `Save an audience persona once and send its id as \`audience_id\` to rank and pairwise (or as \`{ "audience_id": "…" }\` among the audiences of a ranking for several) instead of repeating it. Saved audiences belong to the account of the API key; an id of another account answers \`404\`. Demographics are all optional: omitted fields get defaults, and they shape the persona without filtering anything. These operations are additive to v1.`,
  },
  {
    name: TAG.evaluation,
    description: `Measure whether the scores predict your own results. An **outcome** is what a ranked creative did once it ran, e.g. its click-through rate: record it with recordOutcomes under the ranking's \`request_id\`, the creative's \`asset_id\`, a \`metric\` name of your choosing (\`ctr\`, \`conversion_rate\`; higher must mean better) and its \`value\`, optionally with the \`impressions\` it was measured over. getCalibration then compares the scores with the outcomes.

- Outcomes belong to the account, and only to assets a succeeded ranking of it ranked: an unknown \`request_id\` (or one of another account, or past its retention) answers \`404\`; a pairwise request, a request that has not succeeded, or an asset that is not among the ranking's \`ranked\` answers \`422\`.
- Recording is an upsert per (\`request_id\`, \`asset_id\`, \`metric\`): a new value replaces the old one (\`updated\`), the same value and impressions change nothing (\`unchanged\`), so a batch may be sent again safely. A batch of 1 to ${OUTCOMES_PER_REQUEST_MAX} outcomes is atomic: if any outcome is refused, none is recorded.
- Each outcome keeps a copy of what its ranking said: the goal, the final \`score\`, the raw \`score_before_refine\` and whether the sim model scored it. Calibration therefore outlives the ranking's 30-day retention.
- Calibration is reported per metric, per goal and pooled over goals. **Spearman's rho** ranks score and outcome over every outcome of the group, tied values taking the mean of their ranks (midranks); **Kendall's tau-b** is corrected for ties on either side. **Pairwise agreement** is the share of pairs of creatives *from the same ranking* with different outcomes that the score orders the same way (a score tie counts half; 0.5 is chance), from the final scores and from the raw ones before close-pair refinement. Each figure has a 95 % bootstrap percentile interval over ${CALIBRATION_RESAMPLES.toLocaleString("en")} resamples, resampling outcomes within each ranking.
- Below ${CALIBRATION_MIN_OUTCOMES} outcomes in a group (or without a single pair to compare) \`enough_data\` is false and every figure is null: a correlation over a handful of points says nothing.
- **Reliability** (\`reliability\`) checks the rankings' \`p_above_next\` against the outcomes: pairs of neighbouring creatives of one ranking whose outcomes differ are grouped into five bins by the probability their ranking gave, and each bin shows how often the outcomes ordered them that way, with a 95 % Wilson interval. Only rankings answered with \`p_above_next\` count.
- \`n_simulated\` counts outcomes whose ranking the offline sim model scored. Figures over them measure the harness, not a model: real-model fidelity is measured with real providers and your own outcomes.
- Recording outcomes and reading calibration cost no credits and do not count towards the rate limit.`,
  },
];
