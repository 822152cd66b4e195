// Final and raw agreement keep one colour each across the chart, its tooltip and its legend.
export const FINAL_COLOUR = "#2458c6";
export const RAW_COLOUR = "#9fb3d9";
