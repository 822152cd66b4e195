import type { z } from "zod";
import type { InlineAudience } from "@adrank/contracts";

/** The persona every example judges for: the same in rank, pairwise and a saved audience. */
export const TRAIL_RUNNERS = {
  name: "Weekend trail runners",
  description: "Runs 20 to 40 km a week, mostly on trails; replacing worn shoes before an autumn race and comparing brands on grip and price.",
  demographics: {
    ageRange: "25-34",
    incomeLevel: "75k-100k",
    priceSensitivity: "moderate",
    shoppingIntent: "comparing",
    brandFamiliarity: "heard-of",
  },
} satisfies z.input<typeof InlineAudience>;

/** The id the saved-audience examples use, in the form the service issues (aud_ and 20 hex digits). */
export const TRAIL_RUNNERS_ID = "aud_7c1e5a90b24f8d3e6a15";

/** A second saved audience of the example account, as listAudiences lists it. */
export const NEW_PARENTS_ID = "aud_e04b9d7f31a2c8655b90";
