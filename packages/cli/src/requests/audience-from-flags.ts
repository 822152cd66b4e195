import { UsageError } from "../usage-error.ts";

export interface AudienceFlags {
  "audience-id"?: string;
  "audience-name"?: string;
  "audience-description"?: string;
}

/** `audience_id` or an inline audience from the flags; exactly one, as the API requires. */
export function audienceOf(values: AudienceFlags): { audience_id: string } | { audience: { name: string; description?: string } } {
  const id = values["audience-id"];
  const name = values["audience-name"];
  if (id && name) throw new UsageError("give --audience-id or --audience-name, not both");
  if (id && values["audience-description"]) throw new UsageError("--audience-description goes with --audience-name; a saved audience has its own");
  if (id) return { audience_id: id };
  if (name) return { audience: { name, ...(values["audience-description"] ? { description: values["audience-description"] } : {}) } };
  throw new UsageError("give --audience-id <saved audience> or --audience-name <name>");
}
