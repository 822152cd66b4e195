import { DEFAULT_WAIT_TIMEOUT_MS, TimeoutError, type AdRankClient, type RequestResult, type RequestStatus } from "@adrank/sdk";
import { progressNote } from "./request-progress.ts";

/** What a wait shows its progress on: the spinner of progress.ts. */
export interface ProgressDisplay {
  note(text: string): void;
}

/**
 * Polls a running request until it has a result, noting "3 of 8 assets scored" on the progress
 * display each time the count moves. Ctrl-C stops the waiting, not the request: the error
 * it ends with says how to fetch the result later, which is paid for either way.
 */
export async function waitForRequest(client: AdRankClient, request: Pick<RequestStatus, "request_id" | "progress"> & Partial<Pick<RequestStatus, "operation">>, progress: ProgressDisplay, pollIntervalMs?: number): Promise<RequestResult> {
  const id = request.request_id;
  let shown = "";
  const show = (status: Pick<RequestStatus, "progress"> & Partial<Pick<RequestStatus, "operation">>) => {
    const note = progressNote(status);
    if (note === shown) return;
    shown = note;
    progress.note(note);
  };
  show(request);
  const stop = new AbortController();
  const interrupted = () => stop.abort(new Error(`stopped waiting; request ${id} goes on, fetch it with: adrank get ${id}`));
  process.once("SIGINT", interrupted);
  try {
    return await client.waitForResult(id, { signal: stop.signal, onProgress: show, ...(pollIntervalMs === undefined ? {} : { pollIntervalMs }) });
  } catch (e) {
    // The wait's own deadline (not one slow look, which has no request id): say it in CLI terms.
    if (e instanceof TimeoutError && e.requestId === id) throw new Error(`request ${id} did not finish within ${DEFAULT_WAIT_TIMEOUT_MS / 60_000} min; it goes on, fetch it later with: adrank get ${id}`, { cause: e });
    throw e;
  } finally {
    process.off("SIGINT", interrupted);
  }
}
