import type { GoalKnowledge } from "./goal-knowledge.ts";
import { ATTENTION } from "./sim-visual-weights.ts";

export const ENGAGEMENT: GoalKnowledge = {
  anchorSets: [
    [
      "I would definitely not like, comment on or share this post.",
      "I probably would not like, comment on or share this post.",
      "I am not sure whether I would like, comment on or share this post.",
      "I would probably like, comment on or share this post.",
      "I would definitely like, comment on or share this post.",
    ],
    [
      "There is no way I would react to this post or leave a comment.",
      "It is unlikely that I would react to this post or leave a comment.",
      "I am undecided about whether to react to this post or leave a comment.",
      "It is likely that I would react to this post or leave a comment.",
      "I would certainly react to this post or leave a comment.",
    ],
    [
      "I would never share this with my friends or followers.",
      "I doubt that I would share this with my friends or followers.",
      "I am on the fence about sharing this with my friends or followers.",
      "Chances are I would share this with my friends or followers.",
      "I would absolutely share this with my friends or followers.",
    ],
    [
      "I will never give this post a like or a reply.",
      "It is unlikely that I will give this post a like or a reply.",
      "I am undecided about whether I will give this post a like or a reply.",
      "I will probably give this post a like or a reply.",
      "I will definitely give this post a like or a reply.",
    ],
    [
      "I am definitely not going to interact with this post.",
      "I doubt that I am going to interact with this post.",
      "I am not sure whether I am going to interact with this post.",
      "It is likely that I am going to interact with this post.",
      "I am absolutely going to interact with this post.",
    ],
    [
      "No way would I repost this or tag someone in it.",
      "I probably would not repost this or tag someone in it.",
      "I am on the fence about whether I would repost this or tag someone in it.",
      "Chances are I would repost this or tag someone in it.",
      "I would certainly repost this or tag someone in it.",
    ],
  ],
  framing: {
    question: "Would you like, comment on or share this?",
    comparison: "would make you more likely to like, comment on or share it",
  },
  simProfile: { action: "like, comment on or share this post", label: "engagement", weights: ATTENTION, copyShare: 0.25 },
};
