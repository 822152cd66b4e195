export { castVote, VoteError, type CastVoteDeps } from "./cast-vote.ts";
export { createVoteHandler, voteFailureReply } from "./vote-handler.ts";
export { VoterEnv, type VoterConfig } from "./config.ts";
