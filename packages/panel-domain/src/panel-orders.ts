/** Presentation order shown to one voter: `ab` puts asset a first ("Image 1"). */
export type PresentationOrder = "ab" | "ba";

/** Voters per panel (spec: exactly 5), as the contract fixes it. */
export { PANEL_SIZE } from "@adrank/contracts";

/**
 * The panel's seats: 3 voters see `ab` and 2 see `ba`, so a first-position bias can never
 * decide a panel on its own (it would need all three `ab` votes and one `ba` vote).
 */
export const PANEL_SEATS: ReadonlyArray<{ voterId: string; order: PresentationOrder }> = [
  { voterId: "voter-1", order: "ab" },
  { voterId: "voter-2", order: "ba" },
  { voterId: "voter-3", order: "ab" },
  { voterId: "voter-4", order: "ba" },
  { voterId: "voter-5", order: "ab" },
];
