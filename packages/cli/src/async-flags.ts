import { UsageError } from "./usage-error.ts";

/** Flags rank and pairwise share for durable requests. */
export const ASYNC_OPTIONS = {
  async: { type: "boolean" },
  wait: { type: "boolean" },
  "webhook-url": { type: "string" },
  "idempotency-key": { type: "string" },
} as const;

export interface AsyncFlags {
  async?: boolean;
  wait?: boolean;
  "webhook-url"?: string;
  "idempotency-key"?: string;
  html?: string;
}

export const ASYNC_HELP = `  --async                       submit and return at once: prints the request id (stdout) and how
                                to fetch the result (adrank get <id>); credits are reserved now
  --wait                        with --async: wait for the result, showing progress, and print it
                                as without --async
  --webhook-url <https url>     with --async: the API also POSTs the signed result there when done
  --idempotency-key <key>       makes a retry safe: the same key with the same request within 24 h
                                answers with the first result and is never billed twice`;

/**
 * Refuses the combinations that cannot mean anything, before any image is read: a webhook or a
 * wait on a request that answers with its result anyway, an HTML report of a result not
 * fetched. The key's and URL's own rules are the API's (a 422 costs nothing).
 */
export function checkAsyncFlags(values: AsyncFlags): void {
  if (values["webhook-url"] !== undefined && !values.async) throw new UsageError("--webhook-url needs --async: a request without it answers with its result instead");
  if (values.wait && !values.async) throw new UsageError("--wait goes with --async: without it the command waits for the result already");
  if (values.async && !values.wait && values.html !== undefined) throw new UsageError("--html needs the result: with --async, add --wait (or run adrank get <id> later)");
  if (values["idempotency-key"] !== undefined && values["idempotency-key"].trim() === "") throw new UsageError("--idempotency-key needs a value, e.g. a UUID");
}
