import { REQUEST_RETENTION_DAYS } from "@adrank/contracts";

// Requests that outlast a connection: the 202 flow, and fetching any result again by its id.

export const ASYNC_REQUESTS = `## Asynchronous requests

A ranking of 20 creatives can take up to two minutes. Rather than hold a connection open that long, send \`"async": true\` in the body of POST /api/v1/rank, /api/v1/rank/audiences or /api/v1/pairwise:

1. The answer is \`202 Accepted\` at once, with the request's status (\`"object": "request"\`, \`"status": "running"\`, \`progress\`, \`result_url\`) and the headers \`Location: /api/v1/requests/{request_id}\`, \`Retry-After: 2\` and \`X-Request-Id\`. Credits are reserved and the rate limit counted before the \`202\`, so a \`402\` or \`429\` still comes at once, as for a synchronous request.
2. GET the \`Location\` with the same API key (or another key of the account). While the request runs, the answer is \`202\` with its status and \`progress\` (\`done\` of \`total\` assets or pairs; for several audiences, each asset once per audience) and \`Retry-After\`: ask again after that many seconds.
3. When it has succeeded, the answer is \`200\` with the result: exactly the body a synchronous request would have answered, billed the same way. When it failed, the answer is \`200\` with its status, \`"status": "failed"\` and \`error\`; what did not run is not charged.

Add \`webhook_url\` (only with \`"async": true\`) to have the result POSTed to you instead of polling for it: see **Webhooks**.

The SDK has \`rankAsync\`, \`pairwiseAsync\`, \`getRequest\` and \`waitForResult\`, which polls for you; the CLI has \`--async\` (and \`--wait\`) on \`rank\` and \`pairwise\`, and \`adrank get <request_id>\`.

## Fetching results again

Every ranking (for one audience or several) and pairwise comparison that succeeded, synchronous or not, is kept for at least ${REQUEST_RETENTION_DAYS} days: GET /api/v1/requests/{request_id} answers its response again, byte for byte, with \`X-Request-Id\` equal to \`request_id\`. The id is in every response's \`X-Request-Id\` header and its body's \`request_id\`. Requests of another account, and ids that are unknown or malformed, answer \`404\`. Images you sent as data URIs are stored once (by their content), not once per response.`;
