export { PANEL_SIZE, PANEL_SEATS, type PresentationOrder } from "./panel-orders.ts";
export { tallyPanel, type CastVote, type PanelStatus, type PanelTally, type Side } from "./tally.ts";
export { selectClosePairs, CLOSE_PAIR_GAP, MAX_REFINED_PAIRS, type ClosePair, type Contender } from "./close-pairs.ts";
export { adjustScores, type Adjustment, type AppliedVerdict, type PairVerdict } from "./adjust.ts";
export { presentVote, presentPanel, round4, type PresentedVote, type PresentedPanel } from "./present.ts";
export { refineClosePairs, type RunPanel } from "./refine-close-pairs.ts";
export { votersUsed, type VoteAuthor } from "./voters-used.ts";
export { modelIndexForSeat } from "./seat-models.ts";
