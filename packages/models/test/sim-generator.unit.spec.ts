import { beforeAll, describe, expect, it } from "vitest";
import type { Goal } from "@adrank/contracts";
import { assessCreative, createImageStatsCache, createSimEmbedder, createSimGenerator, isModelError, measureImage, SAMPLE_JITTER, textStance, type CopyFields, type CreativeContext, type GenerateRequest, type ImageInput, type SimHints } from "../src/index.ts";
import { targetStance } from "../src/sim/answer-text.ts";
import { crispCreative, darkBlurred, degradedCreative, flatGrey, noisy } from "./support/test-images.ts";

const context: CreativeContext = { goal: "purchase-intent", assetType: "Social Media Post", platform: null, demographics: {} };
const hints = (over: Partial<SimHints> = {}): SimHints => ({ task: "rate", ...context, copy: null, repetition: 0, generatorIndex: 0, ...over });
const png = (bytes: Uint8Array): ImageInput => ({ bytes, mime: "image/png" });
const rate = (images: ImageInput[], over: Partial<SimHints> = {}): GenerateRequest => ({ system: "persona", user: "rate", images, simHints: hints(over) });
/** The part of an answer the scorer embeds: the lines above RATIONALE and PRODUCT. */
const answerPart = (text: string) => text.split("\nRATIONALE:")[0]!;
const stanceOf = (text: string) => textStance(answerPart(text)).value;

let crisp: Uint8Array, grey: Uint8Array, dark: Uint8Array, noise: Uint8Array, square: Uint8Array, tall: Uint8Array, variants: Uint8Array[];

beforeAll(async () => {
  [crisp, grey, dark, noise, square, tall] = await Promise.all([crispCreative(), flatGrey(), darkBlurred(), noisy(), crispCreative(400, 400, 1), crispCreative(360, 640, 1)]);
  variants = await Promise.all([0, 1, 2, 3, 4].map((v) => crispCreative(400, 400, v)));
});

const qOf = async (bytes: Uint8Array, over: Partial<CreativeContext> = {}) => assessCreative(await measureImage(bytes), null, { ...context, ...over }).q;

describe("sim judgement from real pixel statistics", () => {
  it("rates a crisp, colourful, uncluttered creative far above flat grey, dark-blurred and noisy images", async () => {
    const [good, flat, murky, busy] = (await Promise.all([crisp, grey, dark, noise].map((b) => qOf(b)))) as [number, number, number, number];
    expect(good).toBeGreaterThan(4);
    for (const bad of [flat, murky, busy]) expect(good - bad).toBeGreaterThan(1.5);
    expect(flat).toBeLessThan(2.5);
    expect(murky).toBeLessThan(2.5);
  });

  it("gives distinct creatives distinct scores, and charges each single flaw", async () => {
    const flawed = await Promise.all((["soft", "muted", "dim", "flat"] as const).map(degradedCreative));
    const original = await qOf(crisp);
    const flawedQs = await Promise.all(flawed.map((b) => qOf(b)));
    for (const q of flawedQs) expect(original - q).toBeGreaterThan(0.1);
    const qs = [...flawedQs, ...(await Promise.all(variants.map((b) => qOf(b))))];
    expect(new Set(qs.map((q) => q.toFixed(3))).size).toBe(qs.length);
    expect(Math.max(...qs) - Math.min(...qs)).toBeGreaterThan(0.5);
  });

  it("rewards the shape a platform wants: tall for tiktok, square for instagram", async () => {
    expect(await qOf(tall, { platform: "tiktok" })).toBeGreaterThan((await qOf(tall, { platform: "instagram" })) + 0.4);
    expect(await qOf(square, { platform: "instagram" })).toBeGreaterThan((await qOf(square, { platform: "tiktok" })) + 0.4);
    expect(await qOf(square, { platform: "linkedin" })).toBeGreaterThan((await qOf(tall, { platform: "linkedin" })) + 0.4);
    // An unknown placement leaves shape out of it.
    expect(await qOf(tall, { platform: "some-new-network" })).toBe(await qOf(tall));
  });

  it("lets the placement decide a vote between the same design in two shapes", async () => {
    const voter = createSimGenerator({ model: "sim-voter" });
    const winner = async (platform: string) => (await voter.generate({ system: "", user: "", images: [png(square), png(tall)], simHints: hints({ task: "vote", platform }) })).text.split("\n").at(-1);
    expect(await winner("tiktok")).toBe("WINNER: 2");
    expect(await winner("instagram")).toBe("WINNER: 1");
  });

  it("judges each image of a vote as its own asset type: a wide banner is fine as a banner, not as a square post", async () => {
    const voter = createSimGenerator({ model: "sim-voter" });
    const banner = await crispCreative(728, 90, 1);
    const winner = async (assetTypePerImage: [string, string]) =>
      (await voter.generate({ system: "", user: "", images: [png(square), png(banner)], simHints: hints({ task: "vote", assetTypePerImage }) })).text.split("\n").at(-1);
    // Both called banners: the square image fits no banner slot and loses. The square one called a social post is not held to a banner's shape.
    expect(await winner(["Website Banner", "Website Banner"])).toBe("WINNER: 2");
    expect(await winner(["Social Media Post", "Website Banner"])).toBe("WINNER: 1");
  });

  it("lets a sceptical, price-sensitive persona judge the same creative more harshly", async () => {
    const lenient = await qOf(crisp, { demographics: { adSkepticism: "very-low", shoppingIntent: "ready-to-buy" } });
    const harsh = await qOf(crisp, { demographics: { adSkepticism: "very-high", priceSensitivity: "very-high", trustBaseline: "low" } });
    expect(lenient - harsh).toBeGreaterThan(0.5);
  });

  it("judges copy alone when there is no image: clear copy with a call to action beats shouting copy without one", () => {
    const good = assessCreative(null, { adHeadline: "Brew better coffee at home", adBody: "Our grinder gives cafe-quality grounds in 20 seconds. Free shipping this week.", adCaption: "Shop now" }, context);
    const bad = assessCreative(null, { adBody: "THE BEST COFFEE GRINDER EVER MADE!!! AMAZING!!!" }, context);
    expect(good.q - bad.q).toBeGreaterThan(1);
    expect(bad.observations).toContain("the copy shouts in capital letters");
  });
});

describe("sim generator", () => {
  it("answers the same request with the same text, and says it is simulated", async () => {
    const a = await createSimGenerator().generate(rate([png(dark)]));
    const b = await createSimGenerator().generate(rate([png(dark)]));
    expect(a).toEqual(b);
    expect(a).toMatchObject({ provider: "sim", model: "sim-gen-a", simulated: true });
    expect(a.text).toMatch(/simulated/i);
  });

  it("writes a graded first-person answer with concrete observations and the two closing lines", async () => {
    const gen = createSimGenerator();
    const bad = (await gen.generate(rate([png(dark)]))).text;
    const good = (await gen.generate(rate([png(crisp)]))).text;
    expect(bad).toMatch(/^I (would definitely not|really would not|most likely would not|probably would not|doubt that I would) buy this product\./);
    expect(stanceOf(bad)).toBeLessThan(-0.3);
    expect(bad).toMatch(/the image is dark/i);
    expect(good).toMatch(/^I (would definitely|really would|would most likely|would probably) buy this product\./);
    expect(stanceOf(good)).toBeGreaterThan(0.5);
    for (const text of [bad, good]) {
      const lines = text.split("\n");
      expect(lines.at(-2)).toMatch(/^RATIONALE: \S.*\.$/);
      expect(lines.at(-1)).toMatch(/^PRODUCT: \S.*\.$/);
      expect(lines.filter((l) => /^(RATIONALE|PRODUCT):/.test(l))).toHaveLength(2);
    }
  });

  it("varies slightly and deterministically across repetitions and the two generators", async () => {
    const cache = createImageStatsCache();
    const [a, b] = [createSimGenerator({ model: "sim-gen-a", statsCache: cache }), createSimGenerator({ model: "sim-gen-b", statsCache: cache })];
    const base = await qOf(noise);
    const samples: number[] = [];
    for (const repetition of [0, 1, 2]) {
      for (const [generatorIndex, gen] of [a, b].entries()) samples.push(stanceOf((await gen.generate(rate([png(noise)], { repetition, generatorIndex }))).text));
    }
    expect(new Set(samples).size).toBeGreaterThan(2);
    // Each sample's stance stays within the jitter of the image's own, give or take the wording's step.
    const [low, high] = [targetStance(base - SAMPLE_JITTER), targetStance(base + SAMPLE_JITTER)];
    for (const s of samples) expect(s).toSatisfy((x: number) => x >= low - 0.04 && x <= high + 0.04);
  });

  it("turns better images into higher SSR-style scores once embedded", async () => {
    const gen = createSimGenerator();
    const embedder = createSimEmbedder();
    const anchors = await embedder.embed(["I would definitely not buy this product.", "I probably would not buy it.", "I'm not sure if I'd buy it.", "I'd probably buy it.", "I would definitely buy it."]);
    const score = async (bytes: Uint8Array) => {
      const text = (await gen.generate(rate([png(bytes)]))).text.split("\nRATIONALE:")[0]!;
      const [v] = await embedder.embed([text]);
      const g = anchors.map((a) => (1 + a.reduce((s, x, i) => s + x * v![i]!, 0)) / 2);
      const min = Math.min(...g);
      const total = g.reduce((s, x) => s + x - min, 0);
      return g.reduce((s, x, r) => s + (r + 1) * ((x - min) / total), 0);
    };
    const [good, flat, murky] = (await Promise.all([crisp, grey, dark].map(score))) as [number, number, number];
    expect(good).toBeGreaterThan(flat + 1);
    expect(good).toBeGreaterThan(murky + 1);
  });

  it("votes for the better image in both presentation orders, for every voter of a panel", async () => {
    const voter = createSimGenerator({ model: "sim-voter" });
    for (const [better, worse] of [[crisp, dark], [crisp, noise], [tall, grey]] as const) {
      for (let voterIndex = 0; voterIndex < 5; voterIndex++) {
        const vote = (images: Uint8Array[]) => voter.generate({ system: "", user: "Which one?", images: images.map(png), simHints: hints({ task: "vote", repetition: voterIndex }) });
        const ab = await vote([better, worse]);
        const ba = await vote([worse, better]);
        expect(ab.text.split("\n").at(-1)).toBe("WINNER: 1");
        expect(ba.text.split("\n").at(-1)).toBe("WINNER: 2");
        expect(ab).toMatchObject({ simulated: true });
        expect(ab.text).toMatch(/simulated/i);
      }
    }
  });

  it("shows a small, visible order effect on two near-identical creatives", async () => {
    const voter = createSimGenerator({ model: "sim-voter" });
    const [x, y] = [variants[2]!, variants[3]!];
    let firstWins = 0;
    let xWins = 0;
    const votes = 40;
    for (let voterIndex = 0; voterIndex < votes / 2; voterIndex++) {
      for (const order of [[x, y], [y, x]]) {
        const text = (await voter.generate({ system: "", user: "", images: order.map(png), simHints: hints({ task: "vote", repetition: voterIndex }) })).text;
        const winner = text.endsWith("WINNER: 1") ? 0 : 1;
        if (winner === 0) firstWins++;
        if (order[winner] === x) xWins++;
      }
    }
    // Neither order nor image sweeps the panel, but the first position is favoured.
    expect(firstWins).toBeGreaterThan(votes / 2);
    expect(firstWins).toBeLessThan(votes);
    expect(xWins).toBeGreaterThan(0);
    expect(xWins).toBeLessThan(votes);
  });

  it("refuses bytes that are not an image, and fails a vote without two images", async () => {
    const gen = createSimGenerator();
    const garbage = await gen.generate(rate([{ bytes: new Uint8Array([1, 2, 3, 4]), mime: "image/png" }])).catch((e: unknown) => e);
    expect(isModelError(garbage) && garbage.kind).toBe("refused");
    const lonely = await gen.generate({ system: "", user: "", images: [png(crisp)], simHints: hints({ task: "vote" }) }).catch((e: unknown) => e);
    expect(isModelError(lonely) && lonely.kind).toBe("bad_response");
  });

  it("refuses a goal outside the contract instead of judging it as another goal", async () => {
    await expect(createSimGenerator().generate(rate([png(crisp)], { goal: "some-future-goal" as Goal }))).rejects.toThrow(/unknown goal "some-future-goal"/);
  });

  it("stops at once when the request was cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    const err = await createSimGenerator().generate({ ...rate([png(crisp)]), signal: controller.signal }).catch((e: unknown) => e);
    expect(isModelError(err) && err.kind).toBe("aborted");
  });
});

describe("sim text says why in words, never with a number", () => {
  const GOALS: Goal[] = ["purchase-intent", "click-through-rate", "trustworthiness", "scroll-stopping", "open-rate", "logo-professionalism", "landing-page-conversion"];
  const PLATFORMS = [null, "tiktok", "instagram", "linkedin", "youtube", "google display"];
  const COPIES: Array<CopyFields | null> = [
    null,
    { adHeadline: "Save 20% on 3 pairs before 31/5", adBody: "Two for one: 50 styles, 4.8 stars from 1,200 runners. Shop now." },
    { adBody: "THE 10/10 BEST COFFEE GRINDER EVER!!! 5 STARS!!!" },
    { pageName: "Studio 54", adCaption: "Rated 4.5 out of 5" },
  ];
  const DEMOGRAPHICS: Array<Record<string, string>> = [{}, { adSkepticism: "very-high", priceSensitivity: "very-high" }, { adSkepticism: "very-low", shoppingIntent: "ready-to-buy" }];
  /** A quality stated as a number or a fraction of a scale, in digits or in words. */
  const NUMERIC_RATING = /\d|\b(out of|of (five|ten)|score[sd]?|rating|points?)\b/i;
  /** Quoted ad copy is the advertiser's words, digits and all; only the rest is the sim's. */
  const withoutQuotedCopy = (line: string) => line.replace(/"[^"]*"/g, '""');

  it("states no digit or scale anywhere in a rating's answer, rationale or product lines", async () => {
    const images = [crisp, grey, dark, noise, square, tall, ...variants];
    const cache = createImageStatsCache();
    const gens = [createSimGenerator({ model: "sim-gen-a", statsCache: cache }), createSimGenerator({ model: "sim-gen-b", statsCache: cache })];
    let checked = 0;
    for (const [i, bytes] of [...images, null].entries()) {
      for (const goal of GOALS) {
        const platform = PLATFORMS[i % PLATFORMS.length]!;
        const copy = COPIES[(i + goal.length) % COPIES.length]!;
        const demographics = DEMOGRAPHICS[i % DEMOGRAPHICS.length]!;
        for (const repetition of [0, 1, 2]) {
          const generatorIndex = (i + repetition) % 2;
          const { text } = await gens[generatorIndex]!.generate(rate(bytes ? [png(bytes)] : [], { goal, platform, copy: bytes ? copy : (copy ?? COPIES[1]!), demographics, repetition, generatorIndex }));
          for (const line of text.split("\n")) expect(withoutQuotedCopy(line), text).not.toMatch(NUMERIC_RATING);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(200);
  });

  it("states no digit or scale in a vote either, except the closing WINNER line", async () => {
    const voter = createSimGenerator({ model: "sim-voter" });
    const pairs = [[crisp, dark], [grey, noise], [square, tall], [variants[1]!, variants[4]!]] as const;
    for (const [first, second] of pairs) {
      for (const goal of GOALS) {
        for (const platform of PLATFORMS.slice(0, 3)) {
          const { text } = await voter.generate({ system: "", user: "", images: [png(first), png(second)], simHints: hints({ task: "vote", goal, platform, copyPerImage: [COPIES[1]!, COPIES[2]!] }) });
          const lines = text.split("\n");
          expect(lines.at(-1)).toMatch(/^WINNER: [12]$/);
          for (const line of lines.slice(0, -1)) expect(line, text).not.toMatch(NUMERIC_RATING);
        }
      }
    }
  });

  it("words the same request the same way every time, for a rating and for a vote", async () => {
    const request = rate([png(variants[2]!)], { goal: "engagement", platform: "tiktok", copy: COPIES[1]!, repetition: 2, generatorIndex: 1 });
    const vote: GenerateRequest = { system: "", user: "", images: [png(crisp), png(noise)], simHints: hints({ task: "vote", repetition: 3 }) };
    for (const req of [request, vote]) {
      const [a, b] = [await createSimGenerator({ model: "sim-gen-b" }).generate(req), await createSimGenerator({ model: "sim-gen-b" }).generate(req)];
      expect(b.text).toBe(a.text);
    }
  });
});
