export { createRefineHandler, refineFailureReply } from "./refine-handler.ts";
export { RefinementEnv, type RefinementConfig } from "./config.ts";
