import { RequestOne } from "@nats-io/nats-core/internal";

interface RequestInternals {
  timer?: { cancel(): void };
  mux: { cancel(request: unknown): void };
}

const SETTLED = Symbol("adrank.requestSettled");
type Patched = RequestInternals & { [SETTLED]?: true };

let applied = false;

/**
 * nats.js 3.4 ends every request, answered or not, with `RequestOne.cancel()`, which builds a
 * `RequestError("cancelled")` (a stack trace captured) only to reject a promise that is
 * already settled: a no-op the ledger and the gateway paid on every request and JetStream
 * publish (issue 36's profile: 0.07–0.08 ms of CPU per rank request in each). Once the
 * request has its answer, the patched `cancel` does the rest of the work (stop the timer,
 * leave the request multiplexer) without that Error. Any other cancel, and any request not
 * yet answered, goes to the library as before. Applied once per process, by connectToNats;
 * skipped when the library no longer has the methods this relies on.
 */
export function skipErrorOnSettledRequests(): boolean {
  if (applied) return true;
  const proto = RequestOne.prototype as unknown as Record<string, unknown>;
  const resolver = proto.resolver;
  const cancel = proto.cancel;
  if (typeof resolver !== "function" || typeof cancel !== "function") return false;
  proto.resolver = function (this: Patched, err: unknown, msg: unknown) {
    this[SETTLED] = true;
    return resolver.call(this, err, msg);
  };
  proto.cancel = function (this: Patched, err?: Error) {
    if (err === undefined && this[SETTLED]) {
      this.timer?.cancel();
      this.mux.cancel(this);
      return;
    }
    return cancel.call(this, err);
  };
  applied = true;
  return true;
}
