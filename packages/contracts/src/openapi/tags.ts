// The groups the docs page lists operations under, each with what a reader needs before
// calling its operations: the rules of the spec that shape a request and its bill.

export const TAG = { ranking: "Ranking", pairwise: "Pairwise", requests: "Requests", audiences: "Audiences" } as const;

export const TAGS = [
  {
    name: TAG.ranking,
    description: `Score 1 to 20 creatives for one audience persona and goal, and get them back ranked by score.

- Send exactly one of \`audience\` (inline) and \`audience_id\` (saved). The request-level \`asset_type\` applies to every asset that gives none of its own; \`platform\` sets the delivery context, and \`campaign_type\` is used when \`platform\` is omitted.
- An asset without \`copy_context\` gets one evaluation (\`score_layer\`: \`image-only\`). An asset with it is scored as a \`full-ad-package\` and also on its image alone, which gives \`image_only_score\` and \`copy_lift\`.
- Close pairs: with \`refine_close_pairs\` (default \`true\`), assets whose scores differ by less than 0.30 are close pairs; the closest, at most 6 per request, each go to a five-voter panel. When a panel disagrees with the initial order, \`score\` is adjusted, \`score_before_refine\` keeps the raw value and the affected assets carry \`panel_outcome\`. Refinement is reported in \`summary.close_pair_refinement\` and does not change what is billed.
- A creative that cannot be fetched or scored is listed in \`errors\`; the request still succeeds and the creative is not billed.
- A request takes at most 120 seconds.`,
  },
  {
    name: TAG.pairwise,
    description: `Compare 1 to 10 explicit pairs of creatives. Each pair gets exactly 5 blinded votes, with the presentation order balanced: 3 voters see a first (\`ab\`) and 2 see b first (\`ba\`). The panel runs on exactly the pairs you name, regardless of any scores.

Every vote comes back with the voter's raw response. A completed panel (\`status\` \`done\`) costs 1 credit; \`partial\` and \`error\` pairs are not billed. \`audience\` and \`audience_id\` work as in ranking.`,
  },
  {
    name: TAG.requests,
    description: `Every ranking and pairwise comparison that succeeded is kept for at least 30 days under its \`request_id\` (the \`X-Request-Id\` of its response): fetch it again with its id, from the account that made it.

- A request sent with \`"async": true\` is answered \`202\` at once with its status; it runs on the server. Fetch it here: \`202\` with its progress while it runs, then \`200\` with its result, the same body a synchronous request would have answered (or, when it failed, \`200\` with its status: \`"status": "failed"\` and \`error\`). A \`webhook_url\` also gets the result POSTed when it is done (see **Webhooks** in the introduction).
- An id that is unknown, malformed or of another account answers \`404\`.
- Fetching a request costs no credits.`,
  },
  {
    name: TAG.audiences,
    description: `Save an audience persona once and send its id as \`audience_id\` to rank and pairwise instead of repeating it. Saved audiences belong to the account of the API key; an id of another account answers \`404\`. Demographics are all optional: omitted fields get defaults, and they shape the persona without filtering anything. These operations are additive to v1.`,
  },
];
