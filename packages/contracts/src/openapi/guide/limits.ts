import { LIMITS } from "../../vocabulary.ts";

// The spec's rate limit and its table of limits, in prose.

export const LIMITS_SECTION = `## Rate limits

Ranking is limited to **60 scoring evaluations per minute per API key**. Budget in evaluations, not in assets: an image-only asset takes 1 evaluation and an asset with \`copy_context\` up to 2, so a batch of 20 assets that all carry copy can use 40 of the 60. Every rank response carries \`X-RateLimit-Remaining\`, the evaluations left in the current window.

Over the limit the answer is \`429\` with a \`Retry-After\` header, and \`retryAfter\` and \`resetAt\` in the body. Wait as long as \`Retry-After\` says rather than retrying on a fixed interval (the SDK does this for you). Pairwise panels are counted separately from scoring evaluations.

## Limits

| Limit | Value |
|---|---|
| Assets per rank request | ${LIMITS.assetsMin} to ${LIMITS.assetsMax} |
| Pairs per pairwise request | ${LIMITS.pairsMin} to ${LIMITS.pairsMax} |
| Assets evaluated at once within one rank request | 4 |
| Rank request duration | 120 seconds at most |
| Close pairs refined per rank request | at most 6 |
| Score gap that makes a close pair | less than 0.30 |
| Repetitions per scoring evaluation | 3 (6 generator samples) |
| Voters per pairwise panel | 5 |`;
