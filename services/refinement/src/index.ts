export { refineClosePairs, type RunPanel } from "./refine-close-pairs.ts";
export { createRefineHandler, refineFailureReply } from "./refine-handler.ts";
export { RefinementEnv, type RefinementConfig } from "./config.ts";
