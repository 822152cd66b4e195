/** An answer the console API refused, with its sentence and, for forms, the field. */
export class ApiError extends Error {
  readonly status: number;
  readonly field: string | undefined;
  readonly body: unknown;
  constructor(status: number, body: { error?: string; field?: string } | null) {
    super(body?.error ?? `Request failed (${status}).`);
    this.status = status;
    this.field = body?.field;
    this.body = body;
  }
}

let csrfToken = "";
export const setCsrfToken = (token: string) => {
  csrfToken = token;
};

/** Same-origin JSON calls; every state-changing one carries the session's CSRF token. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (method !== "GET") headers["x-csrf-token"] = csrfToken;
  const res = await fetch(`/console/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "same-origin" });
  const text = await res.text();
  const parsed = text ? (JSON.parse(text) as unknown) : null;
  if (!res.ok) throw new ApiError(res.status, parsed as { error?: string; field?: string } | null);
  return parsed as T;
}

export interface Vocabulary {
  goals: string[];
  assetTypes: string[];
  demographics: Record<string, string[]>;
}
export interface Key {
  id: string;
  name: string;
  prefix: string;
  lastFour: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
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
