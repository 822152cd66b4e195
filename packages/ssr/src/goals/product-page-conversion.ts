import type { GoalKnowledge } from "./goal-knowledge.ts";
import { BALANCED } from "./sim-visual-weights.ts";

export const PRODUCT_PAGE_CONVERSION: GoalKnowledge = {
  anchorSets: [
    [
      "I would definitely not buy from this product page.",
      "I probably would not buy from this product page.",
      "I am not sure whether I would buy from this product page.",
      "I would probably buy from this product page.",
      "I would definitely buy from this product page.",
    ],
    [
      "There is no way I would add this product to my cart.",
      "It is unlikely that I would add this product to my cart.",
      "I am undecided about whether to add this product to my cart.",
      "It is likely that I would add this product to my cart.",
      "I would certainly add this product to my cart.",
    ],
    [
      "I would never check out with this product after seeing this page.",
      "I doubt that I would check out with this product after seeing this page.",
      "I am on the fence about checking out with this product after seeing this page.",
      "Chances are I would check out with this product after seeing this page.",
      "I would absolutely check out with this product after seeing this page.",
    ],
    [
      "I will never place an order from this product listing.",
      "It is unlikely that I will place an order from this product listing.",
      "I am undecided about whether I will place an order from this product listing.",
      "I will probably place an order from this product listing.",
      "I will definitely place an order from this product listing.",
    ],
    [
      "I am definitely not going to put this item in my basket and pay for it.",
      "I doubt that I am going to put this item in my basket and pay for it.",
      "I am not sure whether I am going to put this item in my basket and pay for it.",
      "It is likely that I am going to put this item in my basket and pay for it.",
      "I am absolutely going to put this item in my basket and pay for it.",
    ],
    [
      "No way would I hit the order button on this page.",
      "I probably would not hit the order button on this page.",
      "I am on the fence about whether I would hit the order button on this page.",
      "Chances are I would hit the order button on this page.",
      "I would certainly hit the order button on this page.",
    ],
  ],
  framing: {
    question: "On a product page, would you add this product to your cart and buy it?",
    comparison: "would make you more likely to add the product to your cart from its product page",
  },
  simProfile: { action: "buy from this product page", label: "buying from the page", weights: BALANCED, copyShare: 0.35 },
};
