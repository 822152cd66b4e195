import type { ResolvedAudience } from "@adrank/rank-assembly";
import { AudienceNotFoundError } from "../../errors/api-errors.ts";

/**
 * The audience of a request: the inline one, or the caller's saved one. A saved audience of
 * another account is treated exactly like a missing one (404), so ids reveal nothing.
 */
export async function resolveAudience(
  audiences: { findOwned(accountId: string, id: string): Promise<ResolvedAudience | null> },
  accountId: string,
  request: { audience?: ResolvedAudience | undefined; audience_id?: string | undefined },
): Promise<ResolvedAudience> {
  if (request.audience) return request.audience;
  if (request.audience_id === undefined) throw new Error("the request schema lets neither audience nor audience_id through");
  const saved = await audiences.findOwned(accountId, request.audience_id);
  if (!saved) throw new AudienceNotFoundError(request.audience_id);
  return { name: saved.name, description: saved.description, demographics: saved.demographics };
}
