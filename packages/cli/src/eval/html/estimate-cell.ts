import type { Estimate } from "@adrank/eval-stats";
import { fixed } from "../../number-format.ts";

/** What a table shows for a figure that could not be computed: honest, not a dash to puzzle over. */
export const NOT_ENOUGH_DATA = `<span class="na">not enough data</span>`;

/** A table cell's content: the estimate, and its 95 % interval in small type. */
export const estimateCell = (e: Estimate | null): string =>
  e === null ? NOT_ENOUGH_DATA : `<span class="estimate"><span class="value">${fixed(e.value, 2)}</span> <span class="ci">[${fixed(e.ci_low, 2)}, ${fixed(e.ci_high, 2)}]</span></span>`;

/** The same as plain text, for key-figure cards and titles. */
export const estimateText = (e: Estimate | null): string => (e === null ? "not enough data" : `${fixed(e.value, 2)} [${fixed(e.ci_low, 2)}, ${fixed(e.ci_high, 2)}]`);
