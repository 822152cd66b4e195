import { RetentionPolicy, StorageType, DiscardPolicy, type StreamConfig } from "@nats-io/jetstream";

const NANOS_PER_SECOND = 1_000_000_000;

export type StreamSpec = Partial<StreamConfig> & { name: string; subjects: string[] };

/**
 * Every subject, stream and bucket name of the system, derived from one namespace so that
 * services cannot drift apart and several deployments (or concurrent test runs) can share a
 * NATS server without seeing each other's messages. The empty namespace gives the plain
 * names of the design (`jobs.score`, stream `JOBS`, …).
 */
export interface Topology {
  namespace: string;
  jobs: { score: string; vote: string; refine: string };
  /**
   * Workers reply on plain NATS subjects. A job's `replyTo` names its result's subject (one of
   * a result router's, see result-router.ts); a job without one is answered on
   * `result(requestId, jobId)`, the subject of jobs from gateways older than the router.
   */
  result(requestId: string, jobId: string): string;
  resultsWildcard(requestId: string): string;
  /** Every result on the per-request subjects above (never a router's: those have one token more). */
  resultsPerRequest: string;
  /** The subject on which a job's result reaches the result router `routerId`. */
  routedResult(routerId: string, jobId: string): string;
  routedResultsWildcard(routerId: string): string;
  /** Whether a job's `replyTo` lies under the results subjects: a job may not make a worker publish anywhere else. */
  isResultSubject(subject: string): boolean;
  /** Every request's results: what the services that publish or read results are allowed (nats-permissions.ts). */
  resultsAll: string;
  ledgerAccount(accountId: string): string;
  ledgerAccountWildcard: string;
  /** Request-reply subjects the ledger answers, in queue group `ledgerQueue`. */
  ledgerRpc: { reserve: string; settle: string; grant: string; balance: string };
  ledgerQueue: string;
  streams: { jobs: StreamSpec; ledger: StreamSpec };
  imageBucket: string;
  /** Durable consumer name of a service on a stream. */
  consumer(service: string): string;
  /** Request-reply subject on which a worker service says it is running (see presence.ts). */
  presence(service: string): string;
  /**
   * Core NATS (not JetStream): the gateway says a run ended early and its jobs are of no use
   * any more; a cancel nobody hears costs nothing, so it needs no stream (see cancellations.ts).
   */
  cancel(runId: string): string;
  /** Every run's cancel: what the workers subscribe to. */
  cancelAll: string;
}

export function topology(namespace = ""): Topology {
  if (namespace !== "") assertSubjectToken(namespace);
  const s = (subject: string) => (namespace ? `${namespace}.${subject}` : subject);
  const n = (name: string) => (namespace ? `${namespace}_${name}` : name);
  const resultsPrefix = s("results.");
  return {
    namespace,
    jobs: { score: s("jobs.score"), vote: s("jobs.vote"), refine: s("jobs.refine") },
    result: (requestId, jobId) => s(`results.${assertSubjectToken(requestId)}.${assertSubjectToken(jobId)}`),
    resultsWildcard: (requestId) => s(`results.${assertSubjectToken(requestId)}.>`),
    resultsPerRequest: s("results.*.*"),
    routedResult: (routerId, jobId) => s(`results.to.${assertSubjectToken(routerId)}.${assertSubjectToken(jobId)}`),
    routedResultsWildcard: (routerId) => s(`results.to.${assertSubjectToken(routerId)}.*`),
    isResultSubject: (subject) => subject.length <= MAX_SUBJECT_LENGTH && subject.startsWith(resultsPrefix) && SUBJECT_TOKENS.test(subject.slice(resultsPrefix.length)),
    resultsAll: s("results.>"),
    ledgerAccount: (accountId) => s(`ledger.acct.${assertSubjectToken(accountId)}`),
    ledgerAccountWildcard: s("ledger.acct.>"),
    ledgerRpc: { reserve: s("svc.ledger.reserve"), settle: s("svc.ledger.settle"), grant: s("svc.ledger.grant"), balance: s("svc.ledger.balance") },
    ledgerQueue: n("ledger"),
    streams: {
      // Work queue of every job kind: a message is removed once a worker acks it.
      jobs: {
        name: n("JOBS"),
        subjects: [s("jobs.>")],
        retention: RetentionPolicy.Workqueue,
        storage: StorageType.File,
        discard: DiscardPolicy.Old,
        // A job older than the 120 s request limit (plus slack) is of no use to anyone.
        max_age: 300 * NANOS_PER_SECOND,
        duplicate_window: 120 * NANOS_PER_SECOND,
      },
      // The ledger's event log: never discarded by age, it is the system of record for credits.
      ledger: {
        name: n("LEDGER"),
        subjects: [s("ledger.acct.>")],
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
        discard: DiscardPolicy.New,
        max_age: 0,
        duplicate_window: 120 * NANOS_PER_SECOND,
      },
    },
    imageBucket: n("images"),
    consumer: (service) => n(service),
    presence: (service) => s(`svc.${assertSubjectToken(service)}.presence`),
    cancel: (runId) => s(`cancel.${assertSubjectToken(runId)}`),
    cancelAll: s("cancel.*"),
  };
}

/**
 * Subject tokens may not contain `.`, `*`, `>` or white space. Ids that reach a subject are
 * ours (uuids, account ids), but this check keeps a bad id from widening a subscription.
 */
export function assertSubjectToken(token: string): string {
  if (!isSubjectToken(token)) throw new Error(`not a safe subject token: ${JSON.stringify(token)}`);
  return token;
}

const SUBJECT_TOKEN = /^[A-Za-z0-9_-]{1,128}$/;
/** One or more tokens separated by dots; no wildcard, no empty token. */
const SUBJECT_TOKENS = /^[A-Za-z0-9_-]{1,128}(\.[A-Za-z0-9_-]{1,128})*$/;
const MAX_SUBJECT_LENGTH = 512;

function isSubjectToken(token: string): boolean {
  return SUBJECT_TOKEN.test(token);
}
