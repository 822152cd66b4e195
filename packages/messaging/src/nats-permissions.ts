import { assertSubjectToken, type Topology } from "./topology.ts";

/**
 * The NATS users of one deployment: one per service that connects, and the operator's admin
 * tools (the gateway's `admin` command line and the ledger's grant, mirror and reconcile
 * commands). The migrate step never connects to NATS.
 */
export const NATS_USERS = ["ledger", "gateway", "scorer", "panel-voter", "refinement", "dashboard", "admin"] as const;
export type NatsUser = (typeof NATS_USERS)[number];

/** What one user may do: subjects it may publish to and subscribe to (NATS wildcards), and whether it answers requests. */
export interface SubjectPermissions {
  publish: string[];
  subscribe: string[];
  /** May publish one reply to the reply subject of each request it received (NATS `allow_responses`), and nothing else there. */
  respond: boolean;
}

export interface PermissionOptions {
  /**
   * The console grants sign-up credits (DASHBOARD_SIGNUP_CREDITS above 0, the service's
   * default): it may then publish to the ledger's grant subject. Off, only the admin tools may
   * grant credits, as in production, where the prod overlay sets DASHBOARD_SIGNUP_CREDITS=0.
   */
  consoleSignupGrants: boolean;
}

/**
 * A user's replies arrive on inboxes under this prefix (connectToNats sets it), so its
 * permissions can let it read its own replies and no one else's: pulled jobs, ledger answers.
 */
export function inboxPrefix(user: string): string {
  return `_INBOX.${assertSubjectToken(user)}`;
}

const jsApi = (...tokens: string[]) => `$JS.API.${tokens.join(".")}`;

/**
 * Acknowledging a consumer's messages: the reply subjects JetStream delivers them with, in
 * the classic form and in the newer one that adds a domain and an account hash.
 */
const acks = (stream: string, consumer: string) => [`$JS.ACK.${stream}.${consumer}.>`, `$JS.ACK.*.*.${stream}.${consumer}.>`];

/** Looking a stream up and creating it when missing (ensureStream, which every replica runs at start). */
const ensureStreamApi = (stream: string) => [jsApi("STREAM.INFO", stream), jsApi("STREAM.CREATE", stream)];

/**
 * A durable pull consumer with one filter subject, as startJobWorker runs it: created with its
 * filter (the server checks that the filter in the subject is the config's), brought up to
 * date without it, looked up, pulled from, and its messages acknowledged.
 */
const durableConsumerApi = (stream: string, durable: string, filter: string) => [
  jsApi("CONSUMER.CREATE", stream, durable, filter),
  jsApi("CONSUMER.CREATE", stream, durable),
  jsApi("CONSUMER.INFO", stream, durable),
  jsApi("CONSUMER.MSG.NEXT", stream, durable),
  ...acks(stream, durable),
];

/**
 * Every permission of every user of the namespace's topology, derived from the topology so
 * that subjects and permissions cannot drift apart. The nats-server configuration of compose,
 * the Helm values and the tests are all rendered from this (infra/nats/auth-config.ts).
 */
export function servicePermissions(topo: Topology, { consoleSignupGrants }: PermissionOptions): Record<NatsUser, SubjectPermissions> {
  const jobs = topo.streams.jobs.name;
  const ledgerStream = topo.streams.ledger.name;
  const bucket = topo.imageBucket;
  const imageStream = `OBJ_${bucket}`;
  const results = topo.resultsAll;
  const inbox = (user: NatsUser) => `${inboxPrefix(user)}.>`;
  const rpc = topo.ledgerRpc;

  // The image bucket (an object store): opened by the gateway and the workers, whichever starts first creates it.
  const imageBucketOpen = [...ensureStreamApi(imageStream), jsApi("STREAM.MSG.GET", imageStream)];
  // Reading an image: an ordered consumer per read, filtered to one object's chunks, with flow control.
  const imageRead = [...imageBucketOpen, jsApi("CONSUMER.CREATE", imageStream, "*", `$O.${bucket}.C.*`), `$JS.FC.${imageStream}.>`];
  // Writing one: chunks and metadata, and the purge of an older copy's chunks when it is stored again.
  const imageWrite = [...imageBucketOpen, `$O.${bucket}.C.*`, `$O.${bucket}.M.*`, jsApi("STREAM.PURGE", imageStream)];

  // The LEDGER stream as its owner uses it: appends, reads by subject, the mirror's durable
  // consumer and the ordered consumers that fold long histories.
  const ledgerStreamUse = [
    ...ensureStreamApi(ledgerStream),
    jsApi("STREAM.MSG.GET", ledgerStream),
    jsApi("CONSUMER.CREATE", ledgerStream, ">"),
    jsApi("CONSUMER.INFO", ledgerStream, ">"),
    jsApi("CONSUMER.DELETE", ledgerStream, ">"),
    jsApi("CONSUMER.MSG.NEXT", ledgerStream, ">"),
    ...acks(ledgerStream, "*"),
    topo.ledgerAccountWildcard,
  ];

  const worker = (user: NatsUser, kind: keyof Topology["jobs"]) => [jsApi("INFO"), ...ensureStreamApi(jobs), ...durableConsumerApi(jobs, topo.consumer(user), topo.jobs[kind]), results];

  return {
    ledger: {
      publish: [jsApi("INFO"), ...ledgerStreamUse],
      subscribe: [rpc.reserve, rpc.settle, rpc.grant, rpc.balance, inbox("ledger")],
      respond: true,
    },
    // The only internet-facing service that decodes customer images: it reserves and settles
    // credits but may not grant them, publishes jobs but cannot read any (no consumer, no
    // subscription on jobs), and reads results without being able to forge one.
    gateway: {
      publish: [
        jsApi("INFO"),
        ...ensureStreamApi(jobs),
        topo.jobs.score,
        topo.jobs.refine,
        topo.jobs.vote,
        ...imageWrite,
        rpc.reserve,
        rpc.settle,
        rpc.balance,
        topo.presence("refinement"),
        topo.presence("panel-voter"),
        // The scorers' method key, before a kept evaluation is reused (issue 36).
        topo.presence("scorer"),
        // Only the gateway ends runs: a worker that could cancel would be able to stop others' work.
        topo.cancelAll,
      ],
      subscribe: [results, inbox("gateway")],
      respond: false,
    },
    scorer: {
      publish: [...worker("scorer", "score"), ...imageRead],
      // Presence answers the gateway with the scorer's method key (issue 36).
      subscribe: [topo.presence("scorer"), topo.cancelAll, inbox("scorer")],
      respond: true,
    },
    "panel-voter": {
      publish: [...worker("panel-voter", "vote"), ...imageRead],
      subscribe: [topo.presence("panel-voter"), topo.cancelAll, inbox("panel-voter")],
      respond: true,
    },
    // Runs panels itself: publishes vote jobs and reads their results.
    refinement: {
      publish: [...worker("refinement", "refine"), topo.jobs.vote],
      subscribe: [results, topo.presence("refinement"), topo.cancelAll, inbox("refinement")],
      respond: true,
    },
    dashboard: {
      publish: consoleSignupGrants ? [rpc.grant] : [],
      subscribe: [inbox("dashboard")],
      respond: false,
    },
    // The operator: grants credits and reads balances, and runs the ledger's mirror
    // commands (status, rebuild, reseed: these may delete and re-create the LEDGER stream).
    admin: {
      publish: [jsApi("INFO"), rpc.grant, rpc.balance, ...ledgerStreamUse, jsApi("STREAM.DELETE", ledgerStream)],
      subscribe: [inbox("admin")],
      respond: false,
    },
  };
}
