import type { ModelUsage } from "@adrank/bus-contracts";
import type { RequestOperation, UsageKind } from "@adrank/contracts";
import type { Caller } from "../auth/authenticator.ts";

/** A logger as operations and the lifecycle use it (fastify's request logger fits). */
export interface WorkLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  child(bindings: object): WorkLogger;
}

/**
 * A metered operation (rank, pairwise, …): what the request lifecycle needs of it. The
 * lifecycle owns everything else: Idempotency-Keys, `async`, takeovers, reserve → run →
 * settle, storing the answer and sending it. An operation is registered once (see
 * `RequestLifecycle.route`) and never calls back into the lifecycle.
 */
export interface Operation<Plan> {
  readonly name: RequestOperation;
  /** Which rate window and price its units use. */
  readonly kind: UsageKind;
  /** Its limit, counted from arrival (RANK_TIMEOUT_MS, PAIRWISE_TIMEOUT_MS); also how long a repeat waits for a running twin. */
  readonly timeoutMs: number;
  /**
   * Turns a raw JSON body into a plan for the caller: parses it (400/422) and resolves what it
   * names (404). Used on arrival, and again on the stored body when a request is taken over.
   */
  prepare(body: unknown, caller: Caller): Promise<Prepared<Plan>>;
  /**
   * A last check before any credit is reserved, on every attempt (pairwise: a voter runs, else
   * 503). Returns the plan to run, completed with what the check learned.
   */
  admit?(plan: Plan): Promise<Plan>;
  /**
   * Does the work under a reservation the lifecycle already holds, until `context.stop`
   * fires. Work that ends early throws; to be paid for what it used anyway it throws
   * `UnfinishedWork` carrying that usage.
   */
  run(plan: Plan, context: RunContext): Promise<FinishedWork>;
}

/** A validated request, ready to run. */
export interface Prepared<Plan> {
  plan: Plan;
  /** The most units it can use: what is reserved before any work. */
  units: number;
  /** Image URLs it makes us fetch (data URIs are not fetched): counted in the account's fetch window. */
  fetches: number;
  /** How many items its progress counts to. */
  total: number;
  async: boolean;
  webhookUrl: string | undefined;
}

/** What the work is given: who asked, under which ids, and when it must stop. */
export interface RunContext {
  /** The public id: the response's request_id. */
  requestId: string;
  /** The id the attempt's jobs travel under on the bus (a takeover's differs from the first attempt's). */
  runId: string;
  caller: Caller;
  /** Epoch ms by which the work must end (the settlement keeps the rest of the limit): what workers are told. */
  workDeadline: number;
  /** Fires at the work deadline, or when a plain request's client leaves. */
  stop: AbortSignal;
  /** Why `stop` fired; `null` while it has not. */
  stoppedBy(): "client" | "deadline" | null;
  /** Called as items finish, with how many have. */
  onProgress(done: number): void;
  traceparent: string | null;
  log: WorkLogger;
}

/** What finished work hands back: the units it used, what the model calls cost, and its answer once settled. */
export interface FinishedWork {
  unitsUsed: number;
  /** Per model: recorded with the settlement. */
  modelUsage: ModelUsage[];
  answer(settlement: Settlement): unknown;
}

/** What the ledger charged, as an answer reports it. */
export interface Settlement {
  /** The units billed. */
  units: number;
  /** What they cost: the ledger's figure, or, pending, one credit per unit (what the outbox will charge). */
  creditsUsed: number;
  /** The balance after; null while the charge is pending, or when the ledger refused it. */
  creditsRemaining: number | null;
  /** "pending": the ledger had not confirmed the charge when the answer went; GET /api/v1/requests/{id} shows the confirmed figures later. */
  status: "confirmed" | "pending";
}

/** What work that did not finish used anyway: the units to charge and the model calls made. */
export interface UnfinishedUsage {
  unitsUsed: number;
  modelUsage: ModelUsage[];
}

/**
 * Thrown by an operation's `run` that ended early but used something: the lifecycle settles
 * `used` and passes `cause` on. Any other error settles nothing but the reservation.
 */
export class UnfinishedWork extends Error {
  override name = "UnfinishedWork";
  readonly used: UnfinishedUsage;
  constructor(cause: unknown, used: UnfinishedUsage) {
    super("the work ended before it finished", { cause });
    this.used = used;
  }
}
