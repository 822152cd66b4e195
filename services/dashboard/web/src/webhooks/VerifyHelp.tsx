import { CopyButton } from "../ui/CopyButton.tsx";

const SDK_SAMPLE = `import { verifyWebhookSignature } from "@adrank/sdk";

// rawBody: the request body exactly as received, before any JSON parsing.
const check = await verifyWebhookSignature(rawBody, request.headers["adrank-signature"], process.env.ADRANK_WEBHOOK_SECRET!);
if (!check.ok) return reply.code(400).send(check.reason);`;

/** How a receiver checks that a delivery came from us: the header, the HMAC, and the SDK call that does both. */
export function VerifyHelp() {
  return (
    <div className="card" data-testid="verify-help">
      <h2>Verifying a delivery</h2>
      <p>
        Each delivery carries the header <code>Adrank-Signature: t=&lt;unix seconds&gt;,v1=&lt;hex&gt;</code>. The <code>v1</code> value is the
        HMAC-SHA256 of <code>"&lt;t&gt;.&lt;body&gt;"</code> (the <code>t</code> value, a dot, then the raw body) keyed with your signing secret. Accept
        the delivery when one <code>v1</code> matches, and refuse a <code>t</code> more than 5 minutes from your clock.
      </p>
      <p>
        The SDK's <a href="/docs#description/webhooks" data-testid="verify-docs-link"><code>verifyWebhookSignature</code></a> does all of this; the API
        reference's Webhooks section lists every header and the retry schedule.
      </p>
      <figure className="sample">
        <figcaption>TypeScript SDK <CopyButton text={SDK_SAMPLE} className="link" label="Copy TypeScript SDK" /></figcaption>
        <pre>{SDK_SAMPLE}</pre>
      </figure>
      <p className="muted small">
        A <code>2xx</code> answer counts as delivered. Anything else (redirects are not followed), no answer within 10 s, or no connection is retried,
        after 10 s and then twice as long each time up to an hour apart, for at least 24 h. Deduplicate by <code>Adrank-Delivery-Id</code>: a
        delivery can arrive twice.
      </p>
    </div>
  );
}
