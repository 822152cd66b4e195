import { CALIBRATION_OUTCOMES_READ_MAX, OUTCOME_METRICS_PER_ACCOUNT, OUTCOMES_PER_ACCOUNT, LIMITS } from "@adrank/contracts";
import { KEY_EVALUATIONS_PER_MINUTE } from "../key-rate-limit.ts";

// The spec's rate limit and its table of limits, in prose.

export const LIMITS_SECTION = `## Rate limits

Ranking is limited to **60 scoring evaluations per minute per API key**, and all keys of one account together to **180 per minute**: more keys do not add up to more throughput. Budget in evaluations, not in assets: an image-only asset takes 1 evaluation and an asset with \`copy_context\` up to 2, so a batch of 20 assets that all carry copy can use 40 of the 60. Every rank response carries \`X-RateLimit-Remaining\`, the evaluations left in the current window: the key's own, or its account's when that is less.

Every rank, rank-across-audiences and pairwise request also counts, whatever it costs, in two windows of its account: **240 requests per minute**, and **600 image URLs per minute** for the service to fetch (\`data:\` URIs are not fetched; each distinct URL of a request counts once). A request whose images all fail still counts as one request and all its URLs, so retrying a broken batch in a loop meets a \`429\` quickly.

Over any of these limits the answer is \`429\` with a \`Retry-After\` header, \`retryAfter\` and \`resetAt\` in the body, and an \`error\` sentence that says which limit was reached: the key's, the account's evaluations, its requests or its image URLs. Wait as long as \`Retry-After\` says rather than retrying on a fixed interval (the SDK does this for you). Pairwise panels are counted separately from scoring evaluations.

## Limits

| Limit | Value |
|---|---|
| Scoring evaluations per minute | 60 per API key, 180 for all keys of an account |
| Rank and pairwise requests per minute | 240 per account, whatever they cost (\`429\` beyond) |
| Image URLs fetched per minute | 600 per account (\`429\` beyond) |
| Active API keys per account | 20 (revoke one to create another) |
| Assets per rank request | ${LIMITS.assetsMin} to ${LIMITS.assetsMax} |
| Audiences per rank-across-audiences request | ${LIMITS.audiencesMin} to ${LIMITS.audiencesMax}, names unique |
| Scoring evaluations one rank-across-audiences request may need | ${KEY_EVALUATIONS_PER_MINUTE}, one minute of the key's limit (\`422\` beyond) |
| Pairs per pairwise request | ${LIMITS.pairsMin} to ${LIMITS.pairsMax} |
| Assets evaluated at once within one rank request | 4 |
| Rank request duration | 120 seconds at most |
| Close pairs refined per rank request | at most 6 |
| Score gap that makes a close pair | less than 0.30 |
| Repetitions per scoring evaluation | 3 (6 generator samples) |
| Voters per pairwise panel | 5 |
| Outcomes per account | ${OUTCOMES_PER_ACCOUNT.toLocaleString("en-US")}, under at most ${OUTCOME_METRICS_PER_ACCOUNT} metric names (\`422\` beyond) |
| Outcome batches per minute | 60 per account (\`429\` beyond) |
| Calibration reports | 30 per minute per account, one at a time (\`429\` beyond); each reads the ${CALIBRATION_OUTCOMES_READ_MAX.toLocaleString("en-US")} most recently recorded outcomes at most and ends within 10 s (\`503\`) |
| Asynchronous requests | all are accepted; beyond what a server runs at once they wait, \`"queued": true\`, and start by themselves |
| Pending webhook deliveries per account | 1,000 (a new request with \`webhook_url\` gets \`429\` beyond; without one it is served) |
| Request body | 25 MiB with a valid key; 16 KiB for a route that takes no key (\`413\` beyond) |
| JSON in a body | nested at most 32 levels deep, at most 250,000 array elements and object members in all (\`400\` beyond) |
| Failed authentications | 20 per minute from one client address (\`429\` with \`Retry-After\` beyond, whatever key is sent) |`;
