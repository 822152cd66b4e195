import { DEFAULT_ANCHOR_GOAL } from "./anchors.ts";

interface GoalFraming {
  /**
   * Put to one persona about one creative. An open question in plain words: "how likely"
   * would invite the anchors' own grading words (likely, unlikely) back into the answer.
   */
  question: string;
  /** Completes "Which of the two images …" in a panel vote. */
  comparison: string;
}

/** Each goal in the persona's own terms, about the same act as the goal's anchor statements. */
const GOAL_FRAMING: Readonly<Record<string, GoalFraming>> = {
  "purchase-intent": { question: "Would you buy what this is selling?", comparison: "would make you more likely to buy what it is selling" },
  "click-through-rate": { question: "Would you click or tap on this to find out more?", comparison: "would make you more likely to click or tap on it to find out more" },
  "conversion-potential": { question: "After seeing this, would you take the next step and sign up, buy or book?", comparison: "would make you more likely to take the next step and sign up, buy or book" },
  trustworthiness: { question: "How much would you trust this brand and believe what it claims?", comparison: "makes the brand look more trustworthy and its claims more believable to you" },
  "scroll-stopping": { question: "Scrolling past this in your feed, would it make you stop and look?", comparison: "would be more likely to make you stop scrolling and look" },
  engagement: { question: "Would you like, comment on or share this?", comparison: "would make you more likely to like, comment on or share it" },
  "brand-recognition": { question: "Would you remember which brand this was and recognise it next time?", comparison: "would make the brand easier for you to remember and recognise later" },
  "emotional-resonance": { question: "How much does this make you feel something, and how personal does it feel?", comparison: "makes you feel more, more personally" },
  "open-rate": { question: "Seeing this at the top of an email in your inbox, would you open it?", comparison: "would make you more likely to open the email it leads" },
  "logo-professionalism": { question: "As a brand mark, how professional and established does this logo make the company look?", comparison: "makes the company look more professional and established" },
  "logo-versatility": { question: "How well would this logo work everywhere: as a tiny app icon, in one colour, on dark and light backgrounds, and on a billboard?", comparison: "would work better at every size, in one colour and on any background" },
  "product-page-conversion": { question: "On a product page, would you add this product to your cart and buy it?", comparison: "would make you more likely to add the product to your cart from its product page" },
  "landing-page-conversion": { question: "Arriving on this landing page, would you stay and sign up or take the offer?", comparison: "would make you more likely to stay on the landing page and sign up" },
};

// A goal without framing of its own (the contract lets goals be added) is asked as purchase
// intent, the same fallback its anchor statements use, so question and anchors agree.
function framingOf(goal: string): GoalFraming {
  return Object.hasOwn(GOAL_FRAMING, goal) ? GOAL_FRAMING[goal]! : GOAL_FRAMING[DEFAULT_ANCHOR_GOAL]!;
}

export function goalQuestion(goal: string): string {
  return framingOf(goal).question;
}

export function goalComparison(goal: string): string {
  return framingOf(goal).comparison;
}
