import { CALIBRATION_MIN_OUTCOMES, REQUEST_RETENTION_DAYS } from "@adrank/contracts";

// How a customer finds out whether the scores predict their own results (issue 19), and
// what the figures can and cannot tell them.

export const MEASURING_FIDELITY = `## Measuring fidelity

Scores are only worth acting on if they order creatives the way your audience does. To find out for your account:

1. Rank the creatives you are about to run, and keep each ranking's \`request_id\`.
2. Once they have run, record what each creative did with **Record outcomes** (\`POST /api/v1/outcomes\`): the \`request_id\`, the creative's \`asset_id\`, a \`metric\` such as \`ctr\` and its \`value\`. Do it within ${REQUEST_RETENTION_DAYS} days of the ranking, while it is still stored; the outcome keeps the score it is compared with for good. Sending a batch again is safe.
3. Read **Get calibration** (\`GET /api/v1/calibration\`): per metric and goal, how often the scores ordered two creatives of the same ranking the way their outcomes did (\`pairwise_agreement\`; 0.5 is chance), and the rank correlations Spearman's rho and Kendall's tau-b, each with a 95 % interval.

Read the interval, not only the value: an agreement of 0.60 whose interval reaches below 0.5 is no evidence yet. Below ${CALIBRATION_MIN_OUTCOMES} outcomes in a group no figure is given at all. Outcomes of rankings scored by the offline sim model are counted in \`n_simulated\`: figures over them show that the harness works, not that a model predicts anything. Real-model fidelity is measured with real providers and your own outcomes. Neither operation costs credits.

The CLI records a CSV or JSON Lines file of outcomes with \`adrank outcomes\` and prints the figures with \`adrank calibration\`; \`adrank eval\` ranks a labelled set of creatives and reports the same figures for it.`;
