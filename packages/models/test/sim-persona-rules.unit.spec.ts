import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMOGRAPHIC_VALUES } from "@adrank/contracts";
import { assessCreative, copyCues, createSimGenerator, creativeCues, layoutBusyness, measureImage, PERSONA_RULES, personaEffects, SAMPLE_JITTER, textStance, type CopyFields, type ImageStats, type SimHints } from "../src/index.ts";
import { ratingText } from "../src/sim/answer-text.ts";
import { clauseStance } from "../src/sim/stance.ts";
import { crispCreative, degradedCreative } from "./support/test-images.ts";

/** A middling image (q near 3.5 alone), neither busy nor clean, so only the copy rules can fire. */
const PLAIN: ImageStats = { hash: "plain", width: 1080, height: 1080, brightness: 70, contrast: 22, colourfulness: 15, sharpness: 100, edgeDensity: 0.065 };
const withEdges = (edgeDensity: number): ImageStats => ({ ...PLAIN, hash: `edges-${edgeDensity}`, edgeDensity });

/** The same shoe advertised two ways: a loud discount with sweeping claims, and an understated one. */
const LOUD_SALE: CopyFields = { adHeadline: "The best trail shoe we have ever made", adBody: "Guaranteed grip on any trail. Summer sale: 40% off every pair this week.", adCaption: "Shop now" };
const UNDERSTATED: CopyFields = { adHeadline: "Trail shoes, resoled for life", adBody: "Hand-stitched uppers and a sole we replace when it wears out. Made in Portugal.", adCaption: "Shop now" };
const BARGAIN_HUNTERS = { priceSensitivity: "very-high", adSkepticism: "low" };
const SCEPTICS = { adSkepticism: "very-high", priceSensitivity: "low" };

const assess = (image: ImageStats | null, copy: CopyFields | null, demographics: Record<string, string>) =>
  assessCreative(image, copy, { goal: "purchase-intent", assetType: "Social Media Post", platform: null, demographics });

/** What an audience's rules add to a creative: its raw quality for the audience, with the uniform harshness put back, less its raw quality for no audience. */
function ruleShift(image: ImageStats | null, copy: CopyFields | null, demographics: Record<string, string>): number {
  const a = assess(image, copy, demographics);
  return a.rawQ + a.harshness - assess(image, copy, {}).rawQ;
}

const ad = (body: string): CopyFields => ({ adHeadline: "Trail shoes for wet weather", adBody: body, adCaption: "Shop now" });

describe("copy cues", () => {
  it("finds discounts, prices, sweeping claims and scarcity in the forms ads write them, in any case", () => {
    const cases: Array<[string, keyof ReturnType<typeof copyCues>]> = [
      ["Now 40% OFF", "discount"], ["fifty percent off", "discount"], ["Summer SALE", "discount"], ["Free shipping", "discount"], ["free returns for 60 days", "discount"],
      ["Half-price boots", "discount"], ["BOGO socks", "discount"], ["2 for 1", "discount"], ["Use this coupon", "discount"], ["Save big", "discount"], ["the deal of the week", "discount"],
      ["From $19", "price"], ["only €5", "price"], ["19 € a month", "price"], ["now 19.99", "price"], ["USD 40", "price"],
      ["The BEST shoe", "claims"], ["the #1 shoe", "claims"], ["Number one in Europe", "claims"], ["guaranteed grip", "claims"], ["100% waterproof", "claims"],
      ["the world’s lightest", "claims"], ["dries instantly", "claims"], ["wet socks never again", "claims"], ["clinically tested", "claims"], ["unbeatable grip", "claims"],
      ["Limited edition", "scarcity"], ["only 3 left", "scarcity"], ["only 3 pairs left", "scarcity"], ["Offer ends tonight", "scarcity"], ["ends Sunday", "scarcity"],
      ["last chance", "scarcity"], ["HURRY", "scarcity"], ["today only", "scarcity"], ["while stocks last", "scarcity"], ["Don’t miss it", "scarcity"], ["final hours", "scarcity"], ["few left", "scarcity"],
    ];
    for (const [text, kind] of cases) expect(copyCues({ adBody: text })[kind], text).not.toEqual([]);
  });

  it("matches whole words and phrases only: bestow is not best, and a rating or a count is no price", () => {
    const innocent = [
      "They bestow a bestseller", "a wholesale salesman saved the dealer", "unlimited trails, no hurrying", "4.8 stars from 1,200 runners",
      "a 1000% rise and the #10 spot", "The season ends. Today we ride", "keep to the left lane only", "our limitless range", "proved on every trail",
    ];
    for (const text of innocent) expect(copyCues({ adBody: text }), text).toEqual({ discount: [], price: [], claims: [], scarcity: [] });
  });

  it("leaves the page name out: a shop called Best Deals makes no claim and offers no deal", () => {
    expect(copyCues({ pageName: "Best Deals", adHeadline: "Trail shoes for wet weather" })).toEqual({ discount: [], price: [], claims: [], scarcity: [] });
  });

  it("reads copy at the 5,000-character limit quickly, however it repeats", () => {
    const limit = (unit: string) => unit.repeat(Math.ceil(5000 / unit.length)).slice(0, 5000);
    const inputs = ["best ", "only 1 ", "1.", "a'", "$", "a", "100%", "ends ", "Only 3 left! 40% off €19.99 #1 world’s best. "].map(limit);
    copyCues({ adBody: inputs[0]! });
    const start = performance.now();
    for (const adBody of inputs) copyCues({ adBody, adHeadline: adBody, adCaption: adBody });
    expect(performance.now() - start).toBeLessThan(250);
    expect(copyCues({ adBody: inputs.at(-1)! })).toEqual({ discount: ["per cent off"], price: ["currency amount"], claims: ["#1", "world's", "best"], scarcity: ["only N left"] });
  });

  it("measures how busy a layout is from its edge density: clean up to 8 %, fully busy from 20 %", () => {
    expect(layoutBusyness(0.03)).toBe(0);
    expect(layoutBusyness(0.08)).toBe(0);
    expect(layoutBusyness(0.14)).toBeCloseTo(0.5, 10);
    expect(layoutBusyness(0.2)).toBe(1);
    expect(layoutBusyness(0.7)).toBe(1);
  });
});

describe("persona rules, through assessCreative", () => {
  /** The documented effect of each step, in the vocabulary's order (docs/sim-personas.md). */
  const TABLE: Array<{ field: keyof typeof DEMOGRAPHIC_VALUES; withCue: CopyFields; withoutCue: CopyFields; points: number[] }> = [
    { field: "priceSensitivity", withCue: ad("Waterproof and light. 30% off this week."), withoutCue: ad("Waterproof and light, with a sole that grips."), points: [-0.2, 0, 0.1, 0.3, 0.5] },
    { field: "adSkepticism", withCue: ad("The most comfortable shoe, guaranteed."), withoutCue: ad("Waterproof and light, with a sole that grips."), points: [0.2, 0.1, 0, -0.3, -0.5] },
    { field: "urgency", withCue: ad("Waterproof and light. Only 12 pairs left."), withoutCue: ad("Waterproof and light, with a sole that grips."), points: [-0.2, 0, 0.1, 0.3, 0.5] },
  ];

  it("moves a creative by the documented points, step by step, only when the audience states the field and the copy carries the cue", () => {
    for (const { field, withCue, withoutCue, points } of TABLE) {
      const values = DEMOGRAPHIC_VALUES[field];
      const shifts = values.map((value) => ruleShift(PLAIN, withCue, { [field]: value }));
      shifts.forEach((shift, i) => expect(shift, `${field}=${values[i]}`).toBeCloseTo(points[i]!, 10));
      // The strongest step moves a creative clearly beyond the sampling jitter, and the steps never turn back.
      const extreme = Math.max(...shifts.map(Math.abs));
      expect(extreme).toBeGreaterThanOrEqual(0.3);
      expect(extreme).toBeLessThanOrEqual(0.6);
      const direction = Math.sign(shifts.at(-1)! - shifts[0]!);
      for (let i = 1; i < shifts.length; i++) expect((shifts[i]! - shifts[i - 1]!) * direction).toBeGreaterThanOrEqual(0);
      // No cue, no effect; and the cue alone moves nothing for an audience silent on the field.
      for (const value of values) expect(ruleShift(PLAIN, withoutCue, { [field]: value }), `${field}=${value} without the cue`).toBeCloseTo(0, 10);
      const otherField = field === "urgency" ? "priceSensitivity" : "urgency";
      expect(assess(PLAIN, withCue, { [otherField]: "moderate" }).personaEffects.filter((e) => e.field === field)).toEqual([]);
    }
  });

  it("rewards a plain price for the price-conscious but does not hold it against the premium-minded, as it does a discount", () => {
    const priced = ad("Waterproof and light. From $120.");
    expect(ruleShift(PLAIN, priced, { priceSensitivity: "very-high" })).toBeCloseTo(0.5, 10);
    expect(ruleShift(PLAIN, priced, { priceSensitivity: "very-low" })).toBe(0);
    expect(ruleShift(PLAIN, ad("Waterproof and light. Free delivery."), { priceSensitivity: "very-low" })).toBeCloseTo(-0.2, 10);
  });

  it("lets an ad-fatigued audience mark a busy layout down in proportion to its busyness, and a clean one up a little", () => {
    const busy = DEMOGRAPHIC_VALUES.platformFatigue.map((value) => ruleShift(withEdges(0.2), null, { platformFatigue: value }));
    expect(busy.map((s) => +s.toFixed(10))).toEqual([0, -0.1, -0.25, -0.4]);
    expect(ruleShift(withEdges(0.14), null, { platformFatigue: "very-high" })).toBeCloseTo(-0.2, 10);
    const clean = DEMOGRAPHIC_VALUES.platformFatigue.map((value) => ruleShift(withEdges(0.03), null, { platformFatigue: value }));
    expect(clean.map((s) => +s.toFixed(10))).toEqual([0, 0, 0.05, 0.1]);
    // Neither busy nor clean, or no image at all: the field alone moves nothing.
    expect(ruleShift(PLAIN, null, { platformFatigue: "very-high" })).toBe(0);
    expect(ruleShift(null, ad("Waterproof and light."), { platformFatigue: "very-high" })).toBe(0);
  });

  it("counts layouts measured from real pixels: a dense pattern is busy, the simple test creative is clean", async () => {
    const stripes = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256">${Array.from({ length: 32 }, (_, i) => `<rect x="${i * 8}" width="4" height="256" fill="#000"/><rect y="${i * 8}" width="256" height="2" fill="#c00"/>`).join("")}</svg>`;
    const dense = await measureImage(new Uint8Array(await sharp(Buffer.from(stripes)).png().toBuffer()));
    const simple = await measureImage(await crispCreative());
    expect(creativeCues(dense, null).busyness).toBe(1);
    expect(creativeCues(simple, null)).toMatchObject({ busyness: 0, clean: true });
  });

  it("says why in the rationale, in the audience's terms, and only when a rule fired", () => {
    const forBargainHunters = assess(PLAIN, LOUD_SALE, { priceSensitivity: "very-high" });
    expect(ratingText(forBargainHunters.q, forBargainHunters, "purchase-intent", LOUD_SALE)).toContain("RATIONALE: The price offer draws a price-conscious audience");
    expect(forBargainHunters.drivers[0]).toEqual({ text: "the price offer draws a price-conscious audience", tone: 1 });
    const forSceptics = assess(PLAIN, LOUD_SALE, { adSkepticism: "very-high" });
    const rationale = ratingText(forSceptics.q, forSceptics, "purchase-intent", LOUD_SALE).split("\n").find((line) => line.startsWith("RATIONALE:"));
    expect(rationale).toMatch(/the sweeping claims put off a sceptical audience.*hold/i);
    expect(forSceptics.personaEffects).toEqual([{ rule: "strong-claims", field: "adSkepticism", value: "very-high", found: ["best", "guaranteed"], points: -0.5, text: "the sweeping claims put off a sceptical audience" }]);
    const ruleTexts = PERSONA_RULES.flatMap((r) => [r.raises, r.lowers]);
    const unmoved = assess(PLAIN, UNDERSTATED, { ...BARGAIN_HUNTERS, adSkepticism: "very-high", urgency: "urgent" });
    expect(unmoved.personaEffects).toEqual([]);
    expect(unmoved.observations.filter((o) => ruleTexts.includes(o))).toEqual([]);
  });

  it("reverses the order of two creatives between a price-sensitive and a sceptical audience, by more than the sampling jitter", () => {
    const gap = (demographics: Record<string, string>) => assess(PLAIN, LOUD_SALE, demographics).q - assess(PLAIN, UNDERSTATED, demographics).q;
    expect(gap(BARGAIN_HUNTERS)).toBeGreaterThan(2 * SAMPLE_JITTER);
    expect(gap(SCEPTICS)).toBeLessThan(-2 * SAMPLE_JITTER);
  });

  it("scores two audiences with equal demographics identically, whatever the order of their fields", () => {
    const one = { priceSensitivity: "high", adSkepticism: "very-high", urgency: "urgent", platformFatigue: "high", ageRange: "25-34" };
    const other = { ageRange: "25-34", platformFatigue: "high", urgency: "urgent", adSkepticism: "very-high", priceSensitivity: "high" };
    for (const image of [PLAIN, withEdges(0.16), withEdges(0.03)]) expect(assess(image, LOUD_SALE, other)).toEqual(assess(image, LOUD_SALE, one));
  });

  it("words every reason without a number or a stance word of its own, for every step that moves a creative", () => {
    const everything = creativeCues(withEdges(0.2), { adBody: "Best deal: 40% off, from $19. Ends tonight." });
    const cleanImage = creativeCues(withEdges(0.03), null);
    for (const rule of PERSONA_RULES) {
      for (const value of DEMOGRAPHIC_VALUES[rule.field]) {
        for (const effect of [...personaEffects({ [rule.field]: value }, everything), ...personaEffects({ [rule.field]: value }, cleanImage)]) {
          expect(effect.text).not.toMatch(/\d/);
          // The stance reader must read the reason as a fact, so "…, which I find appealing" carries the direction.
          expect(clauseStance(effect.text), effect.text).toBeNull();
        }
      }
    }
  });

  it("ignores values outside a field's list", () => {
    expect(assess(PLAIN, LOUD_SALE, { priceSensitivity: "constructor", adSkepticism: "extreme" }).personaEffects).toEqual([]);
  });
});

describe("persona rules, through the sim generator", () => {
  let image: Uint8Array;
  beforeAll(async () => {
    image = await degradedCreative("dim");
  });
  const hints = (over: Partial<SimHints>): SimHints => ({ task: "rate", goal: "purchase-intent", assetType: "Social Media Post", platform: null, copy: null, demographics: {}, repetition: 0, generatorIndex: 0, ...over });
  const png = { mime: "image/png" as const };
  const gens = [createSimGenerator({ model: "sim-gen-a" }), createSimGenerator({ model: "sim-gen-b" })];

  /** The mean stance of an evaluation's six ratings, as the scorer would embed them (the lines above RATIONALE). */
  async function meanStance(copy: CopyFields, demographics: Record<string, string>): Promise<number> {
    let sum = 0;
    for (let repetition = 0; repetition < 3; repetition++) {
      for (const generatorIndex of [0, 1]) {
        const { text } = await gens[generatorIndex]!.generate({ system: "", user: "", images: [{ ...png, bytes: image }], simHints: hints({ copy, demographics, repetition, generatorIndex }) });
        sum += textStance(text.split("\nRATIONALE:")[0]!).value;
      }
    }
    return sum / 6;
  }

  it("rates the discount creative higher for bargain hunters and the understated one higher for sceptics", async () => {
    expect(await meanStance(LOUD_SALE, BARGAIN_HUNTERS)).toBeGreaterThan(await meanStance(UNDERSTATED, BARGAIN_HUNTERS));
    expect(await meanStance(LOUD_SALE, SCEPTICS)).toBeLessThan(await meanStance(UNDERSTATED, SCEPTICS));
  });

  it("votes the same way, in either presentation order", async () => {
    const voter = createSimGenerator({ model: "sim-voter" });
    const winner = async (copyPerImage: [CopyFields, CopyFields], demographics: Record<string, string>) =>
      (await voter.generate({ system: "", user: "", images: [{ ...png, bytes: image }, { ...png, bytes: image }], simHints: hints({ task: "vote", copyPerImage, demographics }) })).text.split("\n").at(-1);
    expect(await winner([LOUD_SALE, UNDERSTATED], BARGAIN_HUNTERS)).toBe("WINNER: 1");
    expect(await winner([UNDERSTATED, LOUD_SALE], BARGAIN_HUNTERS)).toBe("WINNER: 2");
    expect(await winner([LOUD_SALE, UNDERSTATED], SCEPTICS)).toBe("WINNER: 2");
    expect(await winner([UNDERSTATED, LOUD_SALE], SCEPTICS)).toBe("WINNER: 1");
  });

  it("answers two audiences with equal demographics word for word alike, whatever their names and descriptions say", async () => {
    const ask = (system: string) => gens[0]!.generate({ system, user: "Rate this ad.", images: [{ ...png, bytes: image }], simHints: hints({ copy: LOUD_SALE, demographics: { ...SCEPTICS } }) });
    const [a, b] = await Promise.all([ask("You are Penny, a bargain hunter who loves a sale."), ask("You are Sam, who distrusts every advert.")]);
    expect(b.text).toBe(a.text);
  });
});
