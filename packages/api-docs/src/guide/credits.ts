// The spec's billing rules: what a request costs and where the response reports it.

export const CREDITS = `## Credits

Billing counts successful scoring evaluations, not assets, and completed pairwise panels:

| Case | Evaluations / credits |
|---|---|
| Image-only asset | 1 |
| Asset with \`copy_context\`, image-only ablation succeeded | 2 |
| Asset with \`copy_context\`, ablation failed | 1 |
| Asset that failed (listed in \`errors\`) | 0 |
| Rank for several audiences (\`POST /api/v1/rank/audiences\`) | each asset as above, once per audience |
| Evaluation reused with \`reuse_evaluations: true\` (marked \`reused\`, counted in \`evaluations_reused\`) | 0, and no rate-limit window |
| Completed pairwise panel (status \`done\`) | 1 credit |
| Pairwise pair with status \`partial\` or \`error\` | not billed |
| Recording outcomes, reading calibration | not billed |
| Client disconnects before a synchronous answer (no \`Idempotency-Key\`, not \`async\`) | the evaluations (pairwise: panels) that had succeeded or had been dispatched to the models when it left (a rank dispatches at most 4 assets at a time; a pairwise request all its pairs at once); nothing for work not yet dispatched. Work still queued or running is cancelled, and the request is kept as \`failed\` with a sentence saying what was billed |

**Reusing evaluations.** Every successful evaluation is kept for its account for a while (7 days by default). A rank request with \`reuse_evaluations: true\` gets a kept evaluation back instead of a new one when everything that decides it is the same: the image's content, the score layer and ad copy, the persona (audience with its demographics, goal, asset type, platform) and the scoring method (models, their settings, prompts). Re-ranking twenty creatives after adding one then costs one evaluation, not twenty. A reused evaluation costs no credit and no rate-limit window: images sent as data URIs are known before the reservation, which leaves their reused evaluations out; an https:// image is known only once fetched, so its evaluations are reserved (they count for \`402\` and \`429\`) and released when the request settles. Evaluations are never shared between accounts.

A request whose batch the account's credits cannot cover is refused with \`402\`. Close-pair refinement is reported in \`summary.close_pair_refinement\`; accounting counts scoring evaluations only. Each response reports \`credits_used\` and \`credits_remaining\` in its \`summary\` (on some accounts the rank summary carries \`ad_rankings_used\` and \`ad_rankings_remaining\` instead), and \`credits_status\`: \`"confirmed"\` when they are the ledger's figures. In the rare case the ledger does not confirm the charge in time, the answer says \`"pending"\`: \`credits_used\` is what the request costs (the charge is recorded durably and applied exactly once), \`credits_remaining\` is \`null\`, and \`GET /api/v1/requests/{request_id}\` shows the confirmed figures within seconds.`;
