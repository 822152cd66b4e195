import type { TokenUsage } from "./types.ts";

/**
 * What went wrong with a model call, as callers branch on it:
 * - `misconfigured`: the service's own set-up is wrong (a key, a model name, a parameter the
 *   model does not take, an exhausted quota, a region or API version). Not the customer's
 *   doing: they are told only that the configuration failed; the operator gets `misconfiguration.fix`.
 * - `refused`: the model or the provider's filter declined this image or text.
 */
export type ModelErrorKind = "timeout" | "rate_limited" | "unavailable" | "bad_response" | "aborted" | "misconfigured" | "refused";

/** Which part of the set-up a `misconfigured` error points at. */
export type MisconfigurationCause =
  | "credentials"
  | "unknown_model"
  | "unsupported_parameter"
  | "quota_exhausted"
  | "region_or_version"
  | "invalid_request";

export interface Misconfiguration {
  cause: MisconfigurationCause;
  /** One sentence for the operator that names the setting to change. Never shown to a customer. */
  fix: string;
}

export interface ModelErrorInit {
  kind: ModelErrorKind;
  provider: string;
  model: string;
  /** Safe to show a user: never an API key, a prompt or a provider's raw error body. */
  message: string;
  /**
   * Why an answer could not be used, in words a user can read, e.g. "no text, the output
   * limit was used up by reasoning (finish reason length)". Written by us from the provider's
   * stop reason and token counts, never from its body.
   */
  reason?: string;
  /** Set exactly when `kind` is `misconfigured`. */
  misconfiguration?: Misconfiguration;
  /** Tokens billed for the attempts that brought unusable answers, so a failed call's cost is not lost. */
  usage?: TokenUsage;
  retryable?: boolean;
  status?: number;
  retryAfterMs?: number;
  cause?: unknown;
}

const RETRYABLE_BY_DEFAULT: Record<ModelErrorKind, boolean> = {
  timeout: true,
  rate_limited: true,
  unavailable: true,
  bad_response: false,
  aborted: false,
  misconfigured: false,
  refused: false,
};

/**
 * A failed model call, as a value callers branch on by `kind`. The provider's original error
 * stays in `cause` for logs; `message` is written by us so it can travel to an API user.
 */
export class ModelError extends Error {
  override name = "ModelError";
  readonly kind: ModelErrorKind;
  readonly retryable: boolean;
  readonly provider: string;
  readonly model: string;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly reason: string | undefined;
  readonly misconfiguration: Misconfiguration | undefined;
  readonly usage: TokenUsage | undefined;

  constructor(init: ModelErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.retryable = init.retryable ?? RETRYABLE_BY_DEFAULT[init.kind];
    this.provider = init.provider;
    this.model = init.model;
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
    this.reason = init.reason;
    this.misconfiguration = init.misconfiguration;
    this.usage = init.usage;
  }

  /** A plain object for logs and NATS envelopes; `cause` is left out on purpose. */
  toJSON(): {
    name: string;
    kind: ModelErrorKind;
    message: string;
    retryable: boolean;
    provider: string;
    model: string;
    status?: number;
    retryAfterMs?: number;
    reason?: string;
    misconfiguration?: Misconfiguration;
    usage?: TokenUsage;
  } {
    return {
      name: this.name,
      kind: this.kind,
      message: this.message,
      retryable: this.retryable,
      provider: this.provider,
      model: this.model,
      ...(this.status === undefined ? {} : { status: this.status }),
      ...(this.retryAfterMs === undefined ? {} : { retryAfterMs: this.retryAfterMs }),
      ...(this.reason === undefined ? {} : { reason: this.reason }),
      ...(this.misconfiguration === undefined ? {} : { misconfiguration: this.misconfiguration }),
      ...(this.usage === undefined ? {} : { usage: this.usage }),
    };
  }
}

export function isModelError(x: unknown): x is ModelError {
  return x instanceof ModelError;
}
