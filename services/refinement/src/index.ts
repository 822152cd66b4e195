export { createRefineHandler, REFINE_EXHAUSTED_ERROR } from "./refine-handler.ts";
export { RefinementEnv, type RefinementConfig } from "./config.ts";
