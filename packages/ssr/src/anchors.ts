// Anchor statements per goal: three reference sets, each with five first-person statements
// from level 1 (most negative) to level 5 (most positive). A sample's pmf is the mean over
// the sets, so no single phrasing decides a score.
//
// Each statement is one clause graded by plain intensity words (definitely not / never /
// no way; probably not / unlikely / doubt; not sure / undecided / on the fence; probably /
// likely / chances are; definitely / certainly / absolutely). Embedders, including the
// offline sim one, separate levels by exactly those words; a second clause after a
// semicolon ("…; I would delete it") would blur the level it belongs to.

/** Five anchor statements, level 1 first. */
export type AnchorSet = readonly [string, string, string, string, string];

export const DEFAULT_ANCHOR_GOAL = "purchase-intent";

export const ANCHOR_SETS: Readonly<Record<string, readonly AnchorSet[]>> = {
  "purchase-intent": [
    [
      "I would definitely not buy this product.",
      "I probably would not buy this product.",
      "I am not sure whether I would buy this product.",
      "I would probably buy this product.",
      "I would definitely buy this product.",
    ],
    [
      "There is no way I would spend my money on this.",
      "It is unlikely that I would spend my money on this.",
      "I am undecided about whether to spend my money on this.",
      "It is likely that I would spend my money on this.",
      "I would certainly spend my money on this.",
    ],
    [
      "I would never purchase what this ad is selling.",
      "I doubt that I would purchase what this ad is selling.",
      "I am on the fence about purchasing what this ad is selling.",
      "Chances are I would purchase what this ad is selling.",
      "I would absolutely purchase what this ad is selling.",
    ],
  ],
  "click-through-rate": [
    [
      "I would definitely not click on this ad.",
      "I probably would not click on this ad.",
      "I am not sure whether I would click on this ad.",
      "I would probably click on this ad.",
      "I would definitely click on this ad.",
    ],
    [
      "There is no way I would tap on this to see more.",
      "It is unlikely that I would tap on this to see more.",
      "I am undecided about whether to tap on this to see more.",
      "It is likely that I would tap on this to see more.",
      "I would certainly tap on this to see more.",
    ],
    [
      "I would never click through to find out more about this.",
      "I doubt that I would click through to find out more about this.",
      "I am on the fence about clicking through to find out more about this.",
      "Chances are I would click through to find out more about this.",
      "I would absolutely click through to find out more about this.",
    ],
  ],
  "conversion-potential": [
    [
      "I would definitely not take the next step and sign up or buy.",
      "I probably would not take the next step and sign up or buy.",
      "I am not sure whether I would take the next step and sign up or buy.",
      "I would probably take the next step and sign up or buy.",
      "I would definitely take the next step and sign up or buy.",
    ],
    [
      "There is no way I would act on this offer.",
      "It is unlikely that I would act on this offer.",
      "I am undecided about whether to act on this offer.",
      "It is likely that I would act on this offer.",
      "I would certainly act on this offer.",
    ],
    [
      "I would never follow through and complete a purchase or sign-up from this.",
      "I doubt that I would follow through and complete a purchase or sign-up from this.",
      "I am on the fence about following through to a purchase or sign-up from this.",
      "Chances are I would follow through and complete a purchase or sign-up from this.",
      "I would absolutely follow through and complete a purchase or sign-up from this.",
    ],
  ],
  trustworthiness: [
    [
      "I would definitely not trust this brand.",
      "I probably would not trust this brand.",
      "I am not sure whether I would trust this brand.",
      "I would probably trust this brand.",
      "I would definitely trust this brand.",
    ],
    [
      "There is no way I would believe what this ad claims.",
      "It is unlikely that I would believe what this ad claims.",
      "I am undecided about whether to believe what this ad claims.",
      "It is likely that I would believe what this ad claims.",
      "I would certainly believe what this ad claims.",
    ],
    [
      "I would never feel safe giving this company my money or my details.",
      "I doubt that I would feel safe giving this company my money or my details.",
      "I am on the fence about giving this company my money or my details.",
      "Chances are I would feel safe giving this company my money or my details.",
      "I would absolutely feel safe giving this company my money or my details.",
    ],
  ],
  "scroll-stopping": [
    [
      "I would definitely not stop scrolling to look at this.",
      "I probably would not stop scrolling to look at this.",
      "I am not sure whether I would stop scrolling to look at this.",
      "I would probably stop scrolling to look at this.",
      "I would definitely stop scrolling to look at this.",
    ],
    [
      "There is no way this would make me pause in my feed.",
      "It is unlikely that this would make me pause in my feed.",
      "I am undecided about whether this would make me pause in my feed.",
      "It is likely that this would make me pause in my feed.",
      "This would certainly make me pause in my feed.",
    ],
    [
      "I would never let this interrupt my scrolling for a closer look.",
      "I doubt that I would let this interrupt my scrolling for a closer look.",
      "I am on the fence about whether this would interrupt my scrolling for a closer look.",
      "Chances are I would let this interrupt my scrolling for a closer look.",
      "I would absolutely let this interrupt my scrolling for a closer look.",
    ],
  ],
  engagement: [
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
  ],
  "brand-recognition": [
    [
      "I would definitely not remember this brand later.",
      "I probably would not remember this brand later.",
      "I am not sure whether I would remember this brand later.",
      "I would probably remember this brand later.",
      "I would definitely remember this brand later.",
    ],
    [
      "There is no way I would recall which brand made this ad.",
      "It is unlikely that I would recall which brand made this ad.",
      "I am undecided about whether I would recall which brand made this ad.",
      "It is likely that I would recall which brand made this ad.",
      "I would certainly recall which brand made this ad.",
    ],
    [
      "I would never recognise this brand the next time I see it.",
      "I doubt that I would recognise this brand the next time I see it.",
      "I am on the fence about whether I would recognise this brand the next time I see it.",
      "Chances are I would recognise this brand the next time I see it.",
      "I would absolutely recognise this brand the next time I see it.",
    ],
  ],
  "emotional-resonance": [
    [
      "I would definitely not feel anything when I see this.",
      "I probably would not feel much when I see this.",
      "I am not sure whether I would feel something when I see this.",
      "I would probably feel something when I see this.",
      "I would definitely feel something strong when I see this.",
    ],
    [
      "There is no way I would be moved by this.",
      "It is unlikely that I would be moved by this.",
      "I am undecided about whether I am moved by this.",
      "It is likely that I would be moved by this.",
      "I would certainly be moved by this.",
    ],
    [
      "I would never feel a personal connection to this.",
      "I doubt that I would feel a personal connection to this.",
      "I am on the fence about whether I feel a personal connection to this.",
      "Chances are I would feel a personal connection to this.",
      "I would absolutely feel a personal connection to this.",
    ],
  ],
  "open-rate": [
    [
      "I would definitely not open this email.",
      "I probably would not open this email.",
      "I am not sure whether I would open this email.",
      "I would probably open this email.",
      "I would definitely open this email.",
    ],
    [
      "There is no way I would open an email that leads with this.",
      "It is unlikely that I would open an email that leads with this.",
      "I am undecided about whether to open an email that leads with this.",
      "It is likely that I would open an email that leads with this.",
      "I would certainly open an email that leads with this.",
    ],
    [
      "I would never open this message from my inbox.",
      "I doubt that I would open this message from my inbox.",
      "I am on the fence about opening this message from my inbox.",
      "Chances are I would open this message from my inbox.",
      "I would absolutely open this message from my inbox.",
    ],
  ],
  "logo-professionalism": [
    [
      "I would definitely not see this logo as professional.",
      "I probably would not see this logo as professional.",
      "I am not sure whether I would see this logo as professional.",
      "I would probably see this logo as professional.",
      "I would definitely see this logo as professional.",
    ],
    [
      "There is no way I would take a company with this logo seriously.",
      "It is unlikely that I would take a company with this logo seriously.",
      "I am undecided about whether to take a company with this logo seriously.",
      "It is likely that I would take a company with this logo seriously.",
      "I would certainly take a company with this logo seriously.",
    ],
    [
      "I would never think this mark belongs to a polished, established business.",
      "I doubt that I would think this mark belongs to a polished, established business.",
      "I am on the fence about whether this mark belongs to a polished, established business.",
      "Chances are I would think this mark belongs to a polished, established business.",
      "I would absolutely think this mark belongs to a polished, established business.",
    ],
  ],
  "logo-versatility": [
    [
      "I would definitely not expect this logo to work at every size and on every background.",
      "I probably would not expect this logo to work at every size and on every background.",
      "I am not sure whether this logo would work at every size and on every background.",
      "I would probably expect this logo to work at every size and on every background.",
      "I would definitely expect this logo to work at every size and on every background.",
    ],
    [
      "There is no way I would find this mark legible as a tiny app icon or favicon.",
      "It is unlikely that I would find this mark legible as a tiny app icon or favicon.",
      "I am undecided about whether I would find this mark legible as a tiny app icon or favicon.",
      "It is likely that I would find this mark legible as a tiny app icon or favicon.",
      "I would certainly find this mark legible as a tiny app icon or favicon.",
    ],
    [
      "I would never expect this logo to hold up in one colour, on dark and light backgrounds, from a stamp to a billboard.",
      "I doubt that this logo would hold up in one colour, on dark and light backgrounds, from a stamp to a billboard.",
      "I am on the fence about whether this logo holds up in one colour, on dark and light backgrounds, from a stamp to a billboard.",
      "Chances are I would see this logo hold up in one colour, on dark and light backgrounds, from a stamp to a billboard.",
      "I would absolutely expect this logo to hold up in one colour, on dark and light backgrounds, from a stamp to a billboard.",
    ],
  ],
  "product-page-conversion": [
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
  ],
  "landing-page-conversion": [
    [
      "I would definitely not sign up from this landing page.",
      "I probably would not sign up from this landing page.",
      "I am not sure whether I would sign up from this landing page.",
      "I would probably sign up from this landing page.",
      "I would definitely sign up from this landing page.",
    ],
    [
      "There is no way I would stay on this landing page and take the offer.",
      "It is unlikely that I would stay on this landing page and take the offer.",
      "I am undecided about whether to stay on this landing page and take the offer.",
      "It is likely that I would stay on this landing page and take the offer.",
      "I would certainly stay on this landing page and take the offer.",
    ],
    [
      "I would never fill in the form on this landing page.",
      "I doubt that I would fill in the form on this landing page.",
      "I am on the fence about filling in the form on this landing page.",
      "Chances are I would fill in the form on this landing page.",
      "I would absolutely fill in the form on this landing page.",
    ],
  ],
};

/**
 * The reference sets of a goal, each 5 statements from level 1 to 5. A goal without sets of
 * its own (the contract lets new goals appear) is rated against purchase intent's.
 *
 * @example
 * anchorSets("open-rate")[0]![4]; // "I would definitely open this email."
 */
export function anchorSets(goal: string): string[][] {
  const sets = Object.hasOwn(ANCHOR_SETS, goal) ? ANCHOR_SETS[goal]! : ANCHOR_SETS[DEFAULT_ANCHOR_GOAL]!;
  return sets.map((set) => [...set]);
}
