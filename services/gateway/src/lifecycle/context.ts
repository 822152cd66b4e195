import type { RequestOperation } from "@adrank/contracts";
import type { RequestsRepository, SettlementsRepository, WebhooksRepository } from "@adrank/db/repositories";
import type { MeteringLedger } from "./metering.ts";
import type { MeteringDeps } from "./metered-run.ts";
import type { Operation, WorkLogger } from "./operation.ts";

export interface LifecycleConfig {
  /** ADRANK_NAMESPACE: requests are taken over only by gateways of the same deployment. */
  namespace: string;
  /** How long a running request's owner promises to renew its lease; a dead owner's request is taken over after it. */
  leaseMs: number;
  /** How long an Idempotency-Key is remembered. */
  keyTtlHours: number;
  /** One ledger round trip (LEDGER_TIMEOUT_MS). */
  ledgerTimeoutMs: number;
  /** How often each gateway looks for asynchronous requests whose owner died. */
  sweepMs: number;
  /** How often each gateway relays the settlements the ledger did not confirm in time. */
  settlementRelayMs: number;
  /** Asynchronous requests one gateway runs at once (its own and taken-over ones); one beyond waits queued. */
  maxBackgroundRuns: number;
  /** Finished requests are kept this long (at least 30 days). */
  retentionDays: number;
  /** WEBHOOK_MAX_PENDING_PER_ACCOUNT: at this many deliveries waiting, a request with webhook_url is refused (429). */
  maxPendingWebhooks: number;
}

export interface LifecycleDeps {
  repo: RequestsRepository;
  webhooks: Pick<WebhooksRepository, "hasSecret" | "pendingDeliveries">;
  /** Null when the webhook URL may be used; else the sentence saying why not (https, public addresses). */
  checkWebhookUrl(url: string): Promise<string | null>;
  ledger: MeteringLedger;
  /** The settlement outbox, and the LEDGER stream whose rows in it are this deployment's. */
  settlements: SettlementsRepository;
  ledgerStream: string;
  /** Cancels a run's jobs on the bus (see MeteringDeps.cancelRun). */
  cancelRun(runId: string): void;
  /** Counts settlements by how they ended (adrank_settlements_total). */
  onSettlement?(outcome: "pending" | "applied" | "refused"): void;
  log: WorkLogger;
  config: LifecycleConfig;
  now(): number;
}

/** What every part of the lifecycle works with: its dependencies, this process's owner id and the registered operations. */
export interface LifecycleContext extends LifecycleDeps {
  /** This process, as the owner of the leases it holds. */
  owner: string;
  metering: MeteringDeps;
  operationOf(name: RequestOperation): Operation<unknown>;
}
