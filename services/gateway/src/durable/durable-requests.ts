import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { RequestOperation } from "@adrank/contracts";
import { inSpan } from "@adrank/telemetry";
import { newDeliveryId, type FinishedRequest, type FinishedResponse, type NewRequest, type RequestsRepository, type TakenOver, type WebhooksRepository } from "@adrank/db/repositories";
import { BodyValidationError, IdempotentRequestInProgressError } from "../errors/api-errors.ts";
import { validTraceparent } from "../http/traceparent.ts";
import { clientGoneSignal } from "../operations/shared/client-gone.ts";
import type { MeteringLedger } from "../operations/shared/metering.ts";
import type { Caller } from "../auth/authenticator.ts";
import { fingerprintOf } from "./fingerprint.ts";
import { createGroupWriter } from "./group-writer.ts";
import { idempotencyKeyOf } from "./idempotency-key-header.ts";
import { holdLease } from "./lease.ts";
import { progressWriter } from "./progress-writer.ts";
import { requestStatusOf, resultUrlOf } from "./request-status.ts";
import { sendStored } from "./send-stored.ts";
import { reserveForTakeover } from "./takeover-reservation.ts";
import { acceptAsync } from "./accept-async.ts";
import { refuseWhenPendingCapReached } from "../webhooks/pending-cap.ts";
import type { DurableWork, WorkFactory, WorkLogger } from "./work.ts";

export interface DurableConfig {
  /** ADRANK_NAMESPACE: requests are taken over only by gateways of the same deployment. */
  namespace: string;
  /** How long a running request's owner promises to renew its lease; a dead owner's request is taken over after it. */
  leaseMs: number;
  /** How long an Idempotency-Key is remembered. */
  keyTtlHours: number;
  /** How long a repeat waits for the first request before answering 409: the operation's own limit. */
  waitLimitMs: Record<RequestOperation, number>;
  /** How often each gateway looks for asynchronous requests whose owner died. */
  sweepMs: number;
  /** Asynchronous requests one gateway runs at once (its own and taken-over ones); one beyond waits queued. */
  maxBackgroundRuns: number;
  /** Finished requests are kept this long (at least 30 days). */
  retentionDays: number;
  /** WEBHOOK_MAX_PENDING_PER_ACCOUNT: at this many deliveries waiting, a request with webhook_url is refused (429). */
  maxPendingWebhooks: number;
}

export interface DurableDeps {
  repo: RequestsRepository;
  webhooks: Pick<WebhooksRepository, "hasSecret" | "pendingDeliveries">;
  /** Null when the webhook URL may be used; else the sentence saying why not (https, public addresses). */
  checkWebhookUrl(url: string): Promise<string | null>;
  ledger: MeteringLedger;
  log: WorkLogger;
  config: DurableConfig;
  now(): number;
}

/** An asynchronous request is given this many attempts (the first and two takeovers) before it is failed. */
const MAX_ATTEMPTS = 3;
const NEVER = new AbortController().signal;

interface OwnedRun {
  requestId: string;
  runId: string;
  work: DurableWork;
  caller: Caller;
  receivedAt: number;
  reservationId: string;
  alreadyReserved?: { windowRemaining: number };
  free?: boolean;
  mode: "sync" | "async";
  traceparent: string | null;
  log: WorkLogger;
}

/**
 * Durable rank and pairwise requests: every finished response is stored (GET
 * /api/v1/requests/{id}), an Idempotency-Key replays the first response instead of running
 * again, and `async: true` answers 202 and runs the work in the background. A running
 * durable request holds a lease in PostgreSQL; when its gateway dies, a repeat with the same
 * key (synchronous) or any gateway's sweep (asynchronous) takes it over and runs it again
 * under the same request id and reservation, so it is billed once.
 */
export function createDurableRequests(deps: DurableDeps) {
  const { repo, config, log } = deps;
  const owner = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  const factories = new Map<RequestOperation, WorkFactory>();
  const background = new Set<Promise<void>>();
  let sweepTimer: NodeJS.Timeout | null = null;
  let purgeTimer: NodeJS.Timeout | null = null;
  let sweeping = false;
  let sweepAgain = false;
  let closing = false;
  // Fresh asynchronous requests between taking a slot and joining `background`: counted too,
  // so that requests arriving together cannot all see the same free slot.
  let starting = 0;
  const slotFree = () => background.size + starting < config.maxBackgroundRuns;
  // Answers of keyless synchronous requests, stored before they are sent: grouped under load.
  const finished = createGroupWriter<{ request: FinishedRequest; response: FinishedResponse }>((items) => repo.recordFinishedMany(items), { maxBatch: 100, maxInFlight: 2 });

  const factoryOf = (operation: RequestOperation): WorkFactory => {
    const f = factories.get(operation);
    if (!f) throw new Error(`no work factory registered for ${operation}`);
    return f;
  };

  /** A slot for a fresh asynchronous request, given back when the serving scope ends (`using`). */
  const takeSlot = (wanted: boolean): Disposable & { held: boolean } => {
    const held = wanted && slotFree();
    if (held) starting++;
    return { held, [Symbol.dispose]: () => void (held && starting--) };
  };

  const inBackground = (run: Promise<unknown>) => {
    const tracked: Promise<void> = run.then(
      () => undefined,
      () => undefined,
    );
    background.add(tracked);
    void tracked.finally(() => {
      background.delete(tracked);
      // A slot is free: a queued request (this gateway's or another's) may start now.
      void sweep();
    });
  };

  /** Runs a request this process owns to its end: stores the answer (or forgets a failed sync one), queues its webhook. */
  async function runOwned(r: OwnedRun): Promise<FinishedResponse> {
    const lease = holdLease(repo, r.requestId, owner, config.leaseMs, r.log);
    try {
      const result = await r.work.run({
        requestId: r.requestId,
        runId: r.runId,
        receivedAt: r.receivedAt,
        clientGone: NEVER,
        reservationId: r.reservationId,
        ...(r.alreadyReserved ? { alreadyReserved: r.alreadyReserved } : {}),
        ...(r.free ? { free: true } : {}),
        onProgress: progressWriter(repo, r.requestId, r.log),
        traceparent: r.traceparent,
        log: r.log,
      });
      const response: FinishedResponse = { status: 200, headers: { "X-RateLimit-Remaining": String(result.rateLimitRemaining) }, body: JSON.stringify(result.body) };
      const stored = await repo
        .finish(r.requestId, owner, { state: "succeeded", response, ...(r.work.webhookUrl !== undefined ? { webhookDeliveryId: newDeliveryId() } : {}) })
        .catch((err: unknown) => {
          r.log.error({ err, requestId: r.requestId }, "storing a finished request failed; it will be taken over and answered again when its lease runs out");
          return null;
        });
      if (stored === false) r.log.warn({ requestId: r.requestId }, "another gateway took this request over; its answer is the one kept");
      return response;
    } catch (err) {
      if (r.mode === "sync") {
        // Refused or failed before anything billable: forget it, so a retry with the key runs afresh.
        await repo.abandon(r.requestId, owner).catch((e: unknown) => r.log.error({ err: e, requestId: r.requestId }, "forgetting a failed request failed; its key frees when the lease runs out"));
      } else {
        await failAsync(r.requestId, err, r.work.webhookUrl !== undefined, r.log);
      }
      throw err;
    } finally {
      lease.stop();
    }
  }

  /** Ends an asynchronous request that cannot finish: GET and the webhook then say why. */
  async function failAsync(requestId: string, err: unknown, withWebhook: boolean, runLog: WorkLogger): Promise<void> {
    const error = publicReasonOf(err);
    runLog.error({ err, requestId }, "asynchronous request failed");
    try {
      const view = await repo.findById(requestId);
      if (!view) return;
      const status = requestStatusOf({ ...view, state: "failed", finishedAt: new Date(deps.now()), error, webhook: view.webhook });
      await repo.finish(requestId, owner, { state: "failed", error, response: { status: 200, headers: {}, body: JSON.stringify(status) }, ...(withWebhook ? { webhookDeliveryId: newDeliveryId() } : {}) });
    } catch (e) {
      runLog.error({ err: e, requestId }, "recording an asynchronous request's failure failed; it will be taken over when its lease runs out");
    }
  }

  /** A repeat of a key whose request is running elsewhere: wait for its answer, or take it over when its owner died. */
  async function awaitHolder(request: FastifyRequest, reply: FastifyReply, holderId: string, work: DurableWork, reqLog: WorkLogger): Promise<FastifyReply | "gone"> {
    const caller = request.caller!;
    const deadline = request.receivedAt + config.waitLimitMs[work.operation];
    for (let pause = 50; ; pause = Math.min(Math.round(pause * 1.5), 500)) {
      const view = await repo.find(holderId, caller.accountId);
      if (!view) return "gone";
      // A finished sync request, or any async one (its 202 is its first answer).
      if (view.accepted && (view.state !== "running" || view.mode === "async")) {
        const first = view.mode === "async" ? { ...view.accepted, headers: { Location: resultUrlOf(holderId), "Retry-After": "2" } } : view.accepted;
        return sendStored(reply, first, holderId, { replayed: true });
      }
      if (view.state === "running" && view.abandoned && view.mode === "sync") {
        const taken = await repo.takeOver(holderId, owner, config.leaseMs, config.namespace);
        if (taken) {
          reqLog.warn({ requestId: holderId, attempt: taken.attempt }, "the gateway running this request died; this repeat takes it over");
          const response = await runTakenOver(taken, work, { ...caller, keyId: taken.keyId }, "sync", validTraceparent(request.headers.traceparent), reqLog);
          return sendStored(reply, response, holderId, { replayed: false });
        }
      }
      if (deps.now() + pause > deadline) throw new IdempotentRequestInProgressError(holderId, 5);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  async function runTakenOver(t: TakenOver, work: DurableWork, caller: Caller, mode: "sync" | "async", traceparent: string | null, runLog: WorkLogger): Promise<FinishedResponse> {
    let reservation: Awaited<ReturnType<typeof reserveForTakeover>>;
    try {
      reservation = await reserveForTakeover(deps.ledger, repo, t, work, runLog);
    } catch (err) {
      if (mode === "sync") await repo.abandon(t.requestId, owner).catch(() => undefined);
      else await failAsync(t.requestId, err, work.webhookUrl !== undefined, runLog);
      throw err;
    }
    return runOwned({ requestId: t.requestId, runId: randomUUID(), work, caller, receivedAt: deps.now(), ...reservation, mode, traceparent, log: runLog });
  }

  /** Starts queued asynchronous requests and picks up those whose gateway died, while a slot is free. */
  async function sweep(): Promise<void> {
    if (closing) return;
    if (sweeping) {
      sweepAgain = true;
      return;
    }
    sweeping = true;
    try {
      do {
        sweepAgain = false;
        while (!closing && slotFree()) {
          const t = await repo.takeOverAbandonedAsync(owner, config.leaseMs, config.namespace);
          if (!t) break;
          inBackground(resumeAsync(t));
        }
      } while (sweepAgain && !closing);
    } catch (err) {
      log.warn({ err }, "looking for abandoned asynchronous requests failed; trying again");
    } finally {
      sweeping = false;
    }
  }

  async function resumeAsync(t: TakenOver): Promise<void> {
    const runLog = log.child({ requestId: t.requestId, attempt: t.attempt });
    // Attempt 1 is a queued request's first start (it was written as attempt 0).
    if (t.attempt === 1) runLog.info({}, "starting a queued asynchronous request");
    else runLog.warn({}, "taking over an asynchronous request whose gateway died");
    let work: DurableWork;
    try {
      if (t.attempt > MAX_ATTEMPTS) throw new Error(`interrupted ${MAX_ATTEMPTS} times`);
      if (t.requestBody === null) throw new Error("the stored body is missing");
      work = await factoryOf(t.operation)(JSON.parse(t.requestBody), { accountId: t.accountId, keyId: t.keyId });
    } catch (err) {
      await failAsync(t.requestId, err, t.webhookUrl !== null, runLog);
      return;
    }
    await runTakenOver(t, work, { accountId: t.accountId, keyId: t.keyId }, "async", null, runLog).catch(() => undefined);
  }

  return {
    owner,

    /** Each operation's route registers how its raw body becomes work (also used to resume a stored body). */
    register(operation: RequestOperation, factory: WorkFactory): void {
      factories.set(operation, factory);
    },

    /** POST /api/v1/rank and /api/v1/pairwise, after authentication. */
    async serve(request: FastifyRequest, reply: FastifyReply, operation: RequestOperation): Promise<FastifyReply> {
      const caller = request.caller!;
      const reqLog = request.log as WorkLogger;
      const idempotencyKey = idempotencyKeyOf(request.headers);
      const work = await factoryOf(operation)(request.body, caller);
      const traceparent = validTraceparent(request.headers.traceparent);
      const requestId = request.id;

      if (work.async && work.webhookUrl !== undefined) await vetWebhook(work.webhookUrl, caller.accountId);

      if (idempotencyKey === null && !work.async) {
        // The plain path: no lease, one insert when it ends; a client that leaves stops the work.
        const result = await work.run({
          requestId,
          runId: requestId,
          receivedAt: request.receivedAt,
          clientGone: clientGoneSignal(reply),
          reservationId: requestId,
          onProgress: () => undefined,
          traceparent,
          log: reqLog,
        });
        const response: FinishedResponse = { status: 200, headers: { "X-RateLimit-Remaining": String(result.rateLimitRemaining) }, body: JSON.stringify(result.body) };
        // A span of its own: with grouping, the wait for a write slot is part of storing.
        await inSpan("store answer", {}, () =>
          finished.write({ request: { requestId, namespace: config.namespace, createdAt: new Date(request.receivedAt), accountId: caller.accountId, keyId: caller.keyId, operation, fingerprint: "-", progressTotal: work.total }, response }),
        ).catch((err: unknown) => reqLog.error({ err, requestId }, "storing the finished request failed; GET /api/v1/requests/{id} will not find it"));
        return sendStored(reply, response, requestId, { replayed: false });
      }

      // MAX_BACKGROUND_REQUESTS: an asynchronous request runs now only when this gateway has a
      // free slot, held from here until it has joined `background` or was refused; else it is
      // stored as queued and the sweep that finds a free slot (here or on another gateway) starts it.
      using slot = takeSlot(work.async);
      const queued = work.async && !slot.held;
      const fingerprint = fingerprintOf(operation, request.body);
      const acceptedBody = work.async
        ? JSON.stringify(
            requestStatusOf({
              requestId,
              operation,
              state: "running",
              createdAt: new Date(request.receivedAt),
              finishedAt: null,
              progressDone: 0,
              progressTotal: work.total,
              error: null,
              webhook: work.webhookUrl !== undefined ? { id: "", url: work.webhookUrl, state: "pending", attempts: 0 } : null,
              queued,
            }),
          )
        : undefined;
      const row: NewRequest = {
        requestId,
        namespace: config.namespace,
        createdAt: new Date(request.receivedAt),
        accountId: caller.accountId,
        keyId: caller.keyId,
        operation,
        mode: work.async ? "async" : "sync",
        fingerprint,
        progressTotal: work.total,
        leaseOwner: owner,
        leaseMs: config.leaseMs,
        reservationId: requestId,
        ...(work.async ? { requestBody: JSON.stringify(request.body), acceptedBody: acceptedBody! } : {}),
        ...(work.webhookUrl !== undefined ? { webhookUrl: work.webhookUrl } : {}),
        ...(queued ? { queued: true } : {}),
      };

      // A key freed while we looked (its request was refused) is claimed again: at most twice.
      for (let round = 0; ; round++) {
        const claim = await repo.start(row, idempotencyKey, config.keyTtlHours);
        if (claim.kind === "claimed") break;
        if (claim.operation !== operation || claim.fingerprint !== fingerprint) {
          throw new BodyValidationError(
            `This Idempotency-Key was already used within the last ${config.keyTtlHours} hours with ${claim.operation !== operation ? `POST /api/v1/${claim.operation}` : "a different request body"} (request_id ${claim.requestId}). Use a new key for a new request.`,
            "Idempotency-Key",
          );
        }
        const answered = await awaitHolder(request, reply, claim.requestId, work, reqLog);
        if (answered !== "gone") return answered;
        if (round >= 2) throw new Error("an Idempotency-Key kept changing hands");
      }

      if (work.async) {
        // Awaited, not returned: the slot is held until the run has joined `background`.
        return await acceptAsync({
          reply,
          requestId,
          work,
          caller,
          acceptedBody: acceptedBody!,
          ledger: deps.ledger,
          log: reqLog,
          abandon: () => repo.abandon(requestId, owner),
          start: (windowRemaining) =>
            queued
              ? // Handed to the sweeps now; a failed release only delays it until the lease runs out.
                void repo.release(requestId, owner).catch((err: unknown) => reqLog.warn({ err, requestId }, "releasing a queued request failed; it starts when its lease runs out"))
              : inBackground(
                  runOwned({ requestId, runId: requestId, work, caller, receivedAt: deps.now(), reservationId: requestId, alreadyReserved: { windowRemaining }, mode: "async", traceparent, log: reqLog }),
                ),
        });
      }
      const response = await runOwned({ requestId, runId: requestId, work, caller, receivedAt: request.receivedAt, reservationId: requestId, mode: "sync", traceparent, log: reqLog });
      return sendStored(reply, response, requestId, { replayed: false });
    },

    /** Starts the sweep for abandoned asynchronous requests and the daily retention purge. */
    start(): void {
      sweepTimer = setInterval(() => void sweep(), config.sweepMs);
      sweepTimer.unref();
      const purge = () =>
        repo.purge(config.retentionDays, config.keyTtlHours).then(
          (n) => n > 0 && log.info({ purged: n, retentionDays: config.retentionDays }, "purged requests past their retention"),
          (err: unknown) => log.warn({ err }, "purging old requests failed; trying again in an hour"),
        );
      purgeTimer = setInterval(() => void purge(), 3_600_000);
      purgeTimer.unref();
    },

    /** Stops looking for new work and waits for the background runs in flight (bounded by their own limits). */
    async close(): Promise<void> {
      closing = true;
      if (sweepTimer) clearInterval(sweepTimer);
      if (purgeTimer) clearInterval(purgeTimer);
      await Promise.allSettled([...background]);
    },

    /** Background runs in flight (tests and metrics). */
    inFlight: () => background.size,
  };

  async function vetWebhook(url: string, accountId: string): Promise<void> {
    const problem = await deps.checkWebhookUrl(url);
    if (problem) throw new BodyValidationError(problem, "webhook_url");
    if (!(await deps.webhooks.hasSecret(accountId))) {
      throw new BodyValidationError("webhook_url needs a webhook signing secret, and this account has none yet: create one in the console (Webhooks), then send the request again.", "webhook_url");
    }
    await refuseWhenPendingCapReached(deps.webhooks, accountId, config.maxPendingWebhooks, deps.now());
  }
}

/** What a failed asynchronous request tells its caller: a typed refusal's own sentence, else a generic one. */
function publicReasonOf(err: unknown): string {
  if (err instanceof Error && ["InsufficientCreditsError", "RateLimitedError", "AudienceNotFoundError", "MeteringUnavailableError", "VotersUnavailableError", "BodyValidationError"].includes(err.name)) return err.message;
  if (err instanceof Error && err.message.startsWith("interrupted")) return `The request was interrupted ${MAX_ATTEMPTS} times by gateway restarts and was given up; nothing was charged for work that did not finish. Submit it again.`;
  return "The request failed inside the service; nothing was charged for work that did not finish. Submit it again.";
}

export type DurableRequests = ReturnType<typeof createDurableRequests>;
export { resultUrlOf };
