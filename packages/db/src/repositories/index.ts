// Data access of accounts, API keys and saved audiences, shared by the gateway, its admin
// command and the dashboard so each rule (ownership, hashing only) is written once.
export { accountsRepository, type AccountsRepository } from "./accounts.ts";
export { apiKeysRepository, type ApiKeysRepository, type KeySummary, type StoredKey } from "./api-keys.ts";
export { audiencesRepository, type AudiencesRepository, type NewAudience, type SavedAudienceRecord } from "./audiences.ts";
export { newId } from "./ids.ts";
