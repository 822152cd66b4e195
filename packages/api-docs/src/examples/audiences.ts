import type { z } from "zod";
import type { AudienceList, CreateAudienceRequest, SavedAudience } from "@adrank/contracts";
import { NEW_PARENTS_ID, TRAIL_RUNNERS, TRAIL_RUNNERS_ID } from "./audience.ts";
import type { Examples } from "./named-example.ts";

export const createAudienceRequestExamples: Examples<z.input<typeof CreateAudienceRequest>> = {
  trailRunners: {
    summary: "A persona to reuse as audience_id",
    value: TRAIL_RUNNERS,
  },
};

const saved: z.output<typeof SavedAudience> = {
  id: TRAIL_RUNNERS_ID,
  name: TRAIL_RUNNERS.name,
  description: TRAIL_RUNNERS.description,
  demographics: TRAIL_RUNNERS.demographics,
  created_at: "2025-09-14T08:21:37.412Z",
};

export const savedAudienceExamples: Examples<z.output<typeof SavedAudience>> = {
  saved: { summary: "The saved audience; pass its id as audience_id", value: saved },
};

export const audienceListExamples: Examples<z.output<typeof AudienceList>> = {
  twoAudiences: {
    summary: "An account with two saved audiences",
    value: {
      audiences: [
        saved,
        {
          id: NEW_PARENTS_ID,
          name: "New parents on a budget",
          description: null,
          demographics: { ageRange: "25-34", incomeLevel: "50k-75k", priceSensitivity: "high", urgency: "high" },
          created_at: "2025-09-20T16:02:11.908Z",
        },
      ],
    },
  },
};
