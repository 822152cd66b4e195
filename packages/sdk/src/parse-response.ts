import type { z } from "zod";
import { UnexpectedResponseError } from "./errors.ts";

/** A 2xx body parsed with its contract schema; one that does not match is a client/server version mismatch. */
export function parseResponse<T>(schema: z.ZodType<T>, status: number, requestId: string | null, body: unknown): T {
  const checked = schema.safeParse(body);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
  throw new UnexpectedResponseError(`The ${status} response does not match the API contract${where}: ${issue?.message ?? "invalid"}.`, { status, requestId, body });
}
