// The spec's Authentication section and its note on where the API may be called from.

export const AUTHENTICATION = `## Authentication

Send your API key on every request: \`Authorization: Bearer agk_live_…\`. Keys start with \`agk_live_\` and are created in the account dashboard. The raw key is shown only once, when it is created; a lost key is replaced by creating a new one. A missing or invalid key gets \`401\`.

Rate limits and credits are counted per key and account, and saved audiences belong to the account of the key that created them.

The \`/api/v1\` routes send no CORS headers and are not proxied: call them from a server or a terminal, not from a web page of another origin. (This page can send a **Test request** because the API itself serves it.)`;
