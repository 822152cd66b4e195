import { beforeAll, describe, expect, it } from "vitest";
import { assessCreative, createImageStatsCache, createSimEmbedder, createSimGenerator, isModelError, measureImage, SAMPLE_JITTER, type CreativeContext, type GenerateRequest, type ImageInput, type SimHints } from "../src/index.ts";
import { crispCreative, darkBlurred, degradedCreative, flatGrey, noisy } from "./support/test-images.ts";

const context: CreativeContext = { goal: "purchase-intent", assetType: "Social Media Post", platform: null, demographics: {} };
const hints = (over: Partial<SimHints> = {}): SimHints => ({ task: "rate", ...context, copy: null, repetition: 0, generatorIndex: 0, ...over });
const png = (bytes: Uint8Array): ImageInput => ({ bytes, mime: "image/png" });
const rate = (images: ImageInput[], over: Partial<SimHints> = {}): GenerateRequest => ({ system: "persona", user: "rate", images, simHints: hints(over) });
const statedQ = (text: string) => Number(/about (\d\.\d) of 5/.exec(text)?.[1]);

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
    expect(bad).toMatch(/^I (would definitely not|probably would not) buy this product\./);
    expect(bad).toContain("the image is dark");
    expect(good).toMatch(/^I would (definitely|probably) buy this product\./);
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
      for (const [generatorIndex, gen] of [a, b].entries()) samples.push(statedQ((await gen.generate(rate([png(noise)], { repetition, generatorIndex }))).text));
    }
    expect(new Set(samples).size).toBeGreaterThan(2);
    for (const q of samples) expect(Math.abs(q - base)).toBeLessThanOrEqual(SAMPLE_JITTER + 0.05);
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

  it("rejects bytes that are not an image as a bad request, and a vote without two images", async () => {
    const gen = createSimGenerator();
    const garbage = await gen.generate(rate([{ bytes: new Uint8Array([1, 2, 3, 4]), mime: "image/png" }])).catch((e: unknown) => e);
    expect(isModelError(garbage) && garbage.kind).toBe("bad_request");
    const lonely = await gen.generate({ system: "", user: "", images: [png(crisp)], simHints: hints({ task: "vote" }) }).catch((e: unknown) => e);
    expect(isModelError(lonely) && lonely.kind).toBe("bad_request");
  });

  it("stops at once when the request was cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    const err = await createSimGenerator().generate({ ...rate([png(crisp)]), signal: controller.signal }).catch((e: unknown) => e);
    expect(isModelError(err) && err.kind).toBe("aborted");
  });
});
