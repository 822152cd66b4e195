/** Flags every command that needs an audience shares. */
export const AUDIENCE_OPTIONS = {
  "audience-id": { type: "string" },
  "audience-name": { type: "string" },
  "audience-description": { type: "string" },
} as const;
