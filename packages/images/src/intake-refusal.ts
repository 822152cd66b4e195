/** Why an image was not taken in; callers branch on this, users read the sentence. */
export type IntakeFailureKind =
  /** Not an https URL or a base64 image data URI, userinfo, a port other than 443. */
  | "unsupported-source"
  /** The host is, or resolves to, an address that is not public. */
  | "address-refused"
  /** DNS, connection, TLS, HTTP status or redirect problems. */
  | "fetch-failed"
  | "too-large"
  | "timed-out"
  | "cancelled"
  /** The bytes are not PNG, JPEG, WebP or GIF, or not what the data URI declares. */
  | "not-an-image"
  | "too-many-pixels"
  /** Truncated or corrupt image data. */
  | "undecodable"
  | "internal";

/**
 * Thrown inside the intake and turned into `{ ok: false }` at its edge. The message is one
 * sentence for the API user: no stack, no internal paths, no echo of data URI content.
 */
export class IntakeRefusal extends Error {
  readonly kind: IntakeFailureKind;

  constructor(kind: IntakeFailureKind, sentence: string, options?: { cause?: unknown }) {
    super(sentence, options);
    this.name = "IntakeRefusal";
    this.kind = kind;
  }
}

export function isIntakeRefusal(err: unknown): err is IntakeRefusal {
  return err instanceof IntakeRefusal;
}

/** The failing side of the intake's result; pure steps return it instead of throwing. */
export interface IntakeFailure {
  ok: false;
  kind: IntakeFailureKind;
  /** One sentence a user reads in the per-asset `errors` of the API response. */
  error: string;
}

export function intakeFailure(kind: IntakeFailureKind, error: string): IntakeFailure {
  return { ok: false, kind, error };
}
