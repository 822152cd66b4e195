export { KEY_PREFIX, LOOKUP_LENGTH, issueKey, lookupOf, hashKey, verifyKey, type IssuedKey } from "./api-key.ts";
export { bearerToken } from "./bearer.ts";
