import type { JetStreamClient } from "@nats-io/jetstream";
import { headers } from "@nats-io/transport-node";
import { injectTraceContext, inSpan, SpanKind } from "@adrank/telemetry";
import type { JobEnvelope } from "@adrank/bus-contracts";
import { HEADERS } from "./headers.ts";
import { encodeJson } from "./json.ts";


/**
 * Puts one job on the JOBS stream. The job id doubles as `Nats-Msg-Id`, so a retried
 * publish is stored once; job ids start with the request id, so they are unique across
 * requests. Resolves when the stream has stored the job. The job carries the active trace
 * context, or else the caller's `traceparent` as it came in.
 */
export async function publishJob(js: JetStreamClient, subject: string, job: JobEnvelope, opts: { traceparent: string | null; timeoutMs: number }): Promise<void> {
  await inSpan(`publish ${subject}`, { kind: SpanKind.PRODUCER, attributes: { "messaging.system": "nats", "messaging.destination.name": subject, "adrank.request_id": job.requestId, "adrank.job_id": job.jobId } }, async () => {
    const h = headers();
    h.set(HEADERS.requestId, job.requestId);
    h.set(HEADERS.jobId, job.jobId);
    h.set(HEADERS.deadline, String(job.deadline));
    injectTraceContext(h);
    if (!h.has(HEADERS.traceparent) && opts.traceparent) h.set(HEADERS.traceparent, opts.traceparent);
    await js.publish(subject, encodeJson(job), { msgID: job.jobId, headers: h, timeout: opts.timeoutMs });
  });
}
