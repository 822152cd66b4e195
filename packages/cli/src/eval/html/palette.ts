// Okabe and Ito's colour-blind-safe palette (yellow left out: it vanishes on white), then a
// few darker extras; more groups than colours reuse them, the legend and table still tell
// them apart by name.
const COLOURS = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#7F5A36", "#4D4D4D", "#8C6BB1", "#2C7F7A"] as const;

/** The colour of the i-th group, the same in every plot and table of a report. */
export const groupColour = (i: number): string => COLOURS[i % COLOURS.length]!;

/** The pooled row's colour: neutral, as it is every group at once. */
export const POOLED_COLOUR = "#1d1d1f";
