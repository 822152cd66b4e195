// The spec's Errors section: one body shape, the statuses, and failures that are not errors.

export const ERRORS = `## Errors

An error answers with a JSON body \`{ "error": "…", "field": "…" }\`: \`error\` is one sentence for a person, \`field\` (when present) the path of the offending value, e.g. \`assets[0].url\`. Every response carries \`X-Request-Id\`; quote it when you report a problem.

| Status | Meaning |
|---|---|
| \`400\` | The body is not JSON, or not sent as \`application/json\`. |
| \`401\` | Missing or invalid API key. |
| \`402\` | Insufficient credits for this batch. |
| \`404\` | \`audience_id\` or a request id does not exist or belongs to another account. |
| \`409\` | The request of this \`Idempotency-Key\` is still running: retry after \`Retry-After\`. |
| \`413\` | The body is larger than 25 MiB. |
| \`422\` | Validation error: the body breaks the schema; \`field\` names the first offending value (\`Idempotency-Key\`: a bad or reused key; \`audiences\`: a ranking for several audiences that could need more evaluations than one minute of the key's rate limit). |
| \`429\` | Rate limited: honour \`Retry-After\` (also \`retryAfter\` and \`resetAt\` in the body). |
| \`500\` | Unexpected failure; the body carries \`request_id\`. |
| \`503\` | Pairwise only: no voter is available right now. Retry shortly. |

Per-asset failures of a ranking are **not** HTTP errors: the request still answers \`200\`, the asset is listed in \`errors\` with its reason, it is not billed, and the other assets are ranked. Likewise a pairwise pair that fails has status \`partial\` or \`error\` (and may carry \`error\`) and is not billed.`;
