import type { AsyncCallOptions, IdempotentCallOptions, RequestStatus } from "@adrank/sdk";
import type { AsyncFlags } from "./async-flags.ts";
import { jsonOutput } from "./json-output.ts";
import { workCount } from "./request-progress.ts";

/**
 * How a rank or pairwise request is made: one synchronous call; submitted and polled only to
 * show progress ("polled", the user asked for nothing); submitted and left (--async); or
 * submitted and waited for (--async --wait).
 */
export type CallMode = "sync" | "polled" | "async" | "async-wait";

/** The mode the flags ask for; `pollForProgress` when plain use may poll to show progress. */
export function callModeOf(values: AsyncFlags, pollForProgress: boolean): CallMode {
  if (values.async) return values.wait ? "async-wait" : "async";
  // A key given by hand keeps the synchronous body, so its retries from a script match it.
  return pollForProgress && values["idempotency-key"] === undefined ? "polled" : "sync";
}

/** The SDK's options for a synchronous call: the caller's Idempotency-Key, when given. */
export const syncCallOptions = (values: AsyncFlags): IdempotentCallOptions => (values["idempotency-key"] === undefined ? {} : { idempotencyKey: values["idempotency-key"] });

/** The SDK's options for submitting asynchronously: the key and the webhook, when given. */
export const asyncCallOptions = (values: AsyncFlags): AsyncCallOptions => ({
  ...(values["webhook-url"] === undefined ? {} : { webhookUrl: values["webhook-url"] }),
  ...(values["idempotency-key"] === undefined ? {} : { idempotencyKey: values["idempotency-key"] }),
});

/**
 * What --async without --wait prints: the request id alone on stdout, so a script can keep it
 * (`id=$(adrank rank … --async)`), or the API's status JSON with --json; on stderr, how to
 * fetch the result.
 */
export function acceptedLines(request: RequestStatus, json: boolean): { stdout: string; stderr: string } {
  const webhook = request.webhook ? `; it will also be POSTed to ${request.webhook.url}` : "";
  return {
    stdout: json ? jsonOutput(request) : `${request.request_id}\n`,
    stderr: `request accepted (${workCount(request)}); fetch the result with: adrank get ${request.request_id} (add --wait to wait for it)${webhook}\n`,
  };
}

/** The line --async --wait shows once submitted: the id, in case the wait is cut short. */
export const waitingLine = (request: RequestStatus): string => `request ${request.request_id} accepted; waiting for it (Ctrl-C stops the wait, not the request: adrank get ${request.request_id} fetches it later)`;
