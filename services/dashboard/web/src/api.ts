/** An answer the console API refused, with its sentence and, for forms, the field. */
export class ApiError extends Error {
  readonly status: number;
  readonly field: string | undefined;
  readonly retryAfter: number | undefined;
  readonly body: unknown;
  constructor(status: number, body: { error?: string; field?: string; retryAfter?: number } | null) {
    super(body?.error ?? (status >= 500 ? "The console could not answer; try again in a moment." : "The request was refused."));
    this.status = status;
    this.field = body?.field;
    this.retryAfter = body?.retryAfter;
    this.body = body;
  }
}

let csrfToken = "";
export const setCsrfToken = (token: string) => {
  csrfToken = token;
};

let onSignedOut: () => void = () => {};
/** Called when the session has ended under a page (expired or signed out in another tab). */
export const whenSignedOut = (callback: () => void) => {
  onSignedOut = callback;
};

// A proxy's HTML error page is no JSON: the status alone then tells what happened.
const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
};

/** Same-origin JSON calls; every state-changing one carries the session's CSRF token. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (method !== "GET") headers["x-csrf-token"] = csrfToken;
  const res = await fetch(`/console/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "same-origin" });
  const text = await res.text();
  const parsed = text ? parseJson(text) : null;
  // /me answers 401 to every signed-out visitor; elsewhere a 401 means the session ended.
  if (res.status === 401 && path !== "/me" && path !== "/signin") onSignedOut();
  if (!res.ok) throw new ApiError(res.status, parsed as { error?: string; field?: string } | null);
  return parsed as T;
}

export interface Vocabulary {
  goals: string[];
  assetTypes: string[];
  demographics: Record<string, string[]>;
  /** How many images one rank request may carry (the contract's limit). */
  maxImagesPerRank?: number;
}
export interface Key {
  id: string;
  name: string;
  prefix: string;
  lastFour: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  /** The key the console made for its own playground. */
  playground: boolean;
}
export interface Audience {
  id: string;
  name: string;
  description: string | null;
  demographics: Record<string, string>;
}
export interface Usage {
  balance: { granted: number; used: number; reserved: number; available: number };
  days: Array<{ day: string; kind: string; units: number }>;
}

export interface Progress {
  done: number;
  total: number;
  unit: "assets" | "pairs";
}
export type RequestState = "running" | "succeeded" | "failed";
/** The API's operations that make durable requests: POST /api/v1/rank, /rank/audiences, /pairwise. */
export type RequestOperation = "rank" | "rank_audiences" | "pairwise";
export type DeliveryState = "pending" | "delivered" | "failed";
export interface RequestSummary {
  requestId: string;
  operation: RequestOperation;
  mode: "sync" | "async";
  state: RequestState;
  /** The HTTP status of the stored response; null while running or when it failed without one. */
  status: number | null;
  progress: Progress;
  createdAt: string;
  finishedAt: string | null;
  webhookState: DeliveryState | null;
}
export interface RequestPage {
  requests: RequestSummary[];
  /** Where the next (older) page starts; null on the last page. */
  nextBefore: string | null;
  retentionDays: number;
}
export interface RequestDetail extends Omit<RequestSummary, "webhookState"> {
  /** Running, but the gateway running it stopped: another one takes it over. */
  stalled: boolean;
  error: string | null;
  webhook: { url: string; state: DeliveryState; attempts: number } | null;
  /** The exact JSON text the API answers for it, once it has succeeded. */
  resultBody: string | null;
  retentionDays: number;
}
export interface SecretInfo {
  createdAt: string;
  rotatedAt: string | null;
  /** Until when the rotated-out secret still signs alongside the new one. */
  previousValidUntil: string | null;
}
export interface DeliveryAttempt {
  attempt: number;
  attemptedAt: string;
  status: number | null;
  error: string | null;
  durationMs: number;
}
export interface Delivery {
  id: string;
  requestId: string;
  url: string;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  history: DeliveryAttempt[];
}
