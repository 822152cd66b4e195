// Header names carried on job and result messages. W3C trace context travels as
// `traceparent` / `tracestate` so that one API request is one trace across services.
export const HEADERS = {
  msgId: "Nats-Msg-Id",
  requestId: "Adrank-Request-Id",
  jobId: "Adrank-Job-Id",
  /** Epoch milliseconds after which the work is worthless and must be dropped. */
  deadline: "Adrank-Deadline",
  traceparent: "traceparent",
  tracestate: "tracestate",
} as const;
