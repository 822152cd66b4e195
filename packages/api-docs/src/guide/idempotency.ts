import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX_CHARS, IDEMPOTENCY_KEY_TTL_HOURS } from "@adrank/contracts";

// Retrying a POST safely: what an Idempotency-Key promises, and what it does not remember.

export const IDEMPOTENCY = `## Retries and idempotency

A connection can drop after the server has started work, and then a client cannot tell whether its request ran. Send an \`${IDEMPOTENCY_KEY_HEADER}\` header with POST /api/v1/rank, POST /api/v1/rank/audiences and POST /api/v1/pairwise, and a retry with the same key is safe: the request runs and is billed once.

- The key is any value of 1 to ${IDEMPOTENCY_KEY_MAX_CHARS} visible ASCII characters, new for each request: a UUID is a good choice. Keys belong to the account; two accounts never share one.
- Within ${IDEMPOTENCY_KEY_TTL_HOURS} hours, a repeat with the same key, the same operation and the same body gets the first response again, byte for byte: its status, body and headers, plus \`Idempotent-Replayed: true\`. \`X-Request-Id\` is the first request's id. Bodies are compared as JSON, so key order and white space do not matter.
- The same key with a different body or on another operation is refused with \`422\` and \`"field": "${IDEMPOTENCY_KEY_HEADER}"\`.
- While the first request is still running, the repeat waits for it, as long as the operation may take (120 s), and then answers with its response. If it is still running after that, the answer is \`409\` with the request's \`request_id\` and \`Retry-After: 5\`: retry later with the same key.
- If the server running the first request stopped, the repeat takes the request over and finishes it under the same \`request_id\`. It is still billed once.
- Only requests that did work are remembered. A request refused before any work (\`400\`, \`401\`, \`402\`, \`404\`, \`413\`, \`422\`, \`429\`, \`503\`) or failing with \`500\` is not: a retry with the same key runs it as new.
- After ${IDEMPOTENCY_KEY_TTL_HOURS} hours the key is forgotten and may be used again; the request it named can still be fetched by its id.

The SDK sends a new key with each rank, rankAcrossAudiences and pairwise call and the same one on that call's retries; pass \`idempotencyKey\` to choose it, e.g. to retry after the call itself gave up. The CLI takes \`--idempotency-key\`.`;
