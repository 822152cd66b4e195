import type { Goal } from "@adrank/contracts";
import { BRAND_RECOGNITION } from "./brand-recognition.ts";
import { CLICK_THROUGH_RATE } from "./click-through-rate.ts";
import { CONVERSION_POTENTIAL } from "./conversion-potential.ts";
import { EMOTIONAL_RESONANCE } from "./emotional-resonance.ts";
import { ENGAGEMENT } from "./engagement.ts";
import type { GoalKnowledge } from "./goal-knowledge.ts";
import { LANDING_PAGE_CONVERSION } from "./landing-page-conversion.ts";
import { LOGO_PROFESSIONALISM } from "./logo-professionalism.ts";
import { LOGO_VERSATILITY } from "./logo-versatility.ts";
import { OPEN_RATE } from "./open-rate.ts";
import { PRODUCT_PAGE_CONVERSION } from "./product-page-conversion.ts";
import { PURCHASE_INTENT } from "./purchase-intent.ts";
import { SCROLL_STOPPING } from "./scroll-stopping.ts";
import { TRUSTWORTHINESS } from "./trustworthiness.ts";

/**
 * One entry per goal of the contract. Typed by `Goal`, so a goal added to the contract
 * without its entry, or an entry without anchors, framing or sim profile, fails the typecheck.
 * In the contract's order.
 */
export const GOAL_TABLE: { readonly [G in Goal]: GoalKnowledge } = {
  "purchase-intent": PURCHASE_INTENT,
  "click-through-rate": CLICK_THROUGH_RATE,
  "conversion-potential": CONVERSION_POTENTIAL,
  trustworthiness: TRUSTWORTHINESS,
  "scroll-stopping": SCROLL_STOPPING,
  engagement: ENGAGEMENT,
  "brand-recognition": BRAND_RECOGNITION,
  "emotional-resonance": EMOTIONAL_RESONANCE,
  "open-rate": OPEN_RATE,
  "logo-professionalism": LOGO_PROFESSIONALISM,
  "logo-versatility": LOGO_VERSATILITY,
  "product-page-conversion": PRODUCT_PAGE_CONVERSION,
  "landing-page-conversion": LANDING_PAGE_CONVERSION,
};

/**
 * The knowledge of one goal. A value outside the contract is refused, not rated as another
 * goal: goals are parsed where they enter (the API request, the bus message), so one that
 * gets here unparsed is a bug to surface.
 *
 * @example
 * goalKnowledge("open-rate").framing.question; // "Seeing this at the top of an email …"
 */
export function goalKnowledge(goal: Goal): GoalKnowledge {
  if (!Object.hasOwn(GOAL_TABLE, goal)) throw new RangeError(`unknown goal ${JSON.stringify(goal)}: not one of the contract's goals`);
  return GOAL_TABLE[goal];
}
