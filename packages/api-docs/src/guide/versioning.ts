// The spec's Versioning rules, as a client has to act on them.

export const VERSIONING = `## Versioning

The version is in the path: \`/api/v1/\`. Additive changes ship inside v1 without notice: new optional request fields, new response fields, and new values for \`goal\` and \`asset_type\`. Parse responses tolerantly and accept unknown keys on \`ranked[]\` and \`summary\`. A breaking change ships under a new path prefix.`;
