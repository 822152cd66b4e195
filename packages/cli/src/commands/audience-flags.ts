/** Flags every command that needs an audience shares. */
export const AUDIENCE_OPTIONS = {
  "audience-id": { type: "string" },
  "audience-name": { type: "string" },
  "audience-description": { type: "string" },
} as const;

/**
 * The audience flags of `adrank rank`: --audience-id and --audience-name may each be repeated
 * (two to five audiences are ranked side by side), and --audiences names a JSON file of them.
 */
export const RANK_AUDIENCE_OPTIONS = {
  "audience-id": { type: "string", multiple: true },
  "audience-name": { type: "string", multiple: true },
  "audience-description": { type: "string" },
  audiences: { type: "string", multiple: true },
} as const;
