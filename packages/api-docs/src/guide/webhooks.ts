// Results pushed to the client: what is sent, how to check it came from us, and the retries.

export const WEBHOOKS = `## Webhooks

An asynchronous request with a \`webhook_url\` has its result POSTed there when it finishes. The URL must be \`https://\` and its host must resolve to public addresses (the same rules as for image URLs), and the account needs a webhook signing secret; otherwise the request is refused with \`422\` and \`"field": "webhook_url"\`.

**The secret.** Create it in the console. It starts with \`whsec_\` and is shown once, when it is created. Rotating it makes a new one; for 24 hours after a rotation the old one still signs too, so a receiver can switch over without missing a delivery.

**The delivery** is a POST with the exact body GET /api/v1/requests/{request_id} answers (the result, or the status of a failed request) and these headers:

| Header | Value |
|---|---|
| \`Content-Type\` | \`application/json\` |
| \`Adrank-Signature\` | \`t=<unix seconds>,v1=<hex>\`; during the 24 hours after a rotation, a second \`v1=\` signed with the old secret |
| \`Adrank-Event\` | \`request.succeeded\` or \`request.failed\` |
| \`Adrank-Request-Id\` | the request's \`request_id\` |
| \`Adrank-Delivery-Id\` | the same on every attempt of one delivery: use it to ignore a repeat |
| \`Adrank-Delivery-Attempt\` | \`1\` for the first attempt, then \`2\`, \`3\`, … |
| \`User-Agent\` | \`adrank-webhooks/1\` |

**Verifying it.** Each \`v1\` is the HMAC-SHA256, in lowercase hex, of \`<t>.<body>\` (the \`t\` value, a dot, then the raw body bytes exactly as received) keyed with your secret. Compute it before parsing the JSON, compare it in constant time with each \`v1\` of the header and accept the delivery if one matches; refuse a \`t\` more than 5 minutes from your clock, so an old delivery cannot be replayed. The SDK does all of this: \`verifyWebhookSignature(rawBody, request.headers["adrank-signature"], secret)\` answers \`{ ok: true }\` or \`{ ok: false, reason }\`.

**Retries.** Any \`2xx\` answer means delivered. Anything else is retried: another status (redirects are not followed, so a \`3xx\` counts as a failure), no answer within 10 seconds, or no connection. The first retry comes after about 10 seconds and each wait doubles (20 s, 40 s, …) up to one hour between attempts, with up to 10 % jitter, for at least 24 hours; after that the delivery is given up and its \`webhook.state\` becomes \`failed\`. A delivery can arrive more than once, so answer \`2xx\` quickly and deduplicate by \`Adrank-Delivery-Id\`. Each request's status shows its webhook's \`state\` and \`attempts\`, and the console lists every attempt. If a webhook never arrives, the result can still be fetched with GET /api/v1/requests/{request_id}.`;
