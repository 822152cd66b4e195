export { castVote, VoteError, type CastVoteDeps } from "./cast-vote.ts";
export { createVoteHandler, VOTE_EXHAUSTED_ERROR } from "./vote-handler.ts";
export { VoterEnv, type VoterConfig } from "./config.ts";
