export { ImageRef } from "./image-ref.ts";
export { PersonaInput, PanelPersonaInput, JobCopy } from "./persona-input.ts";
export { JobEnvelope, JobFailure, jobResult, type JobKind } from "./job.ts";
export { ScoreJob, Evaluation, ScoreResult } from "./score-job.ts";
export { VoteJob, VoteResult } from "./vote-job.ts";
export { RefineJob, RefineAsset, RefinementReport, RefineResult } from "./refine-job.ts";
export { RpcError, rpcReply, type RpcReply } from "./rpc-error.ts";
export {
  AccountId,
  ReserveRequest,
  ReserveReply,
  SettleRequest,
  SettleReply,
  MAX_SETTLE_MODEL_USAGE,
  GrantRequest,
  BalanceRequest,
  BalanceView,
  FAILURE_CODES,
  REJECTION_DETAILS,
  type RejectionCode,
} from "./ledger-rpc.ts";
export { Presence } from "./presence.ts";
export { ModelUsage, mergeModelUsage, callUsage } from "./model-usage.ts";
export { ModelRun, EvaluationReceipt, VoteReceipt, distinctVoteReceipts } from "./receipt.ts";
