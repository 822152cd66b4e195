// The two kinds of usage keep one colour each across chart, tooltip, legend and table.
export const SCORING_COLOUR = "#2f7d4f";
export const PAIRWISE_COLOUR = "#d68c1f";
