import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decodePng, encodePng } from "../../../scripts/eval/png.ts";
import { CAMPAIGNS, PER_CAMPAIGN, syntheticFixture } from "../../../scripts/eval/synthetic-fixture.ts";
import { groupLabel, readEvalDataset, type EvalDataset, type OutcomeRow, type PairRow } from "../src/eval/dataset.ts";
import { UsageError } from "../src/usage-error.ts";

const EXAMPLES = resolve(dirname(fileURLToPath(import.meta.url)), "../../../examples/eval");
const png = encodePng({ width: 2, height: 2, rgb: new Uint8Array(12).fill(128) });
const RUNNERS = { audience: { name: "Trail runners" } };

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "eval-dataset-"));
  mkdirSync(join(dir, "ads"));
  for (const name of ["a.png", "b.png", "c.png"]) writeFileSync(join(dir, "ads", name), png);
  writeFileSync(join(dir, "ads", "notes.txt"), "not an image");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

const outcomeRows = (d: EvalDataset) => (d.kind === "outcomes" ? d.rows : expect.fail("expected outcome rows")) as OutcomeRow[];
const pairRows = (d: EvalDataset) => (d.kind === "pairs" ? d.rows : expect.fail("expected pair rows")) as PairRow[];

/** The UsageError a dataset gets, as its message. */
async function refusal(path: string, defaults: Parameters<typeof readEvalDataset>[1] = RUNNERS): Promise<string> {
  const err = await readEvalDataset(path, defaults).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UsageError);
  return (err as UsageError).message;
}

describe("readEvalDataset: outcome rows", () => {
  it("reads a CSV: images relative to the file, ids from file names, copy columns as copy_context, groups with the flags' defaults", async () => {
    const path = file(
      "set.csv",
      "image,outcome,headline,body,page_name,campaign,goal\n" + "ads/a.png,0.031,Run further,Light shoes,Trailco,spring,\n" + `${join(dir, "ads", "b.png")},0.012,,,,,engagement\n`,
    );
    const dataset = await readEvalDataset(path, { goal: "click-through-rate", audience: { id: "aud_123" } });
    expect(dataset).toMatchObject({ path, format: "csv", kind: "outcomes", sha256: createHash("sha256").update(readFileSync(path)).digest("hex") });
    expect(outcomeRows(dataset)).toEqual([
      {
        line: 2,
        id: "a.png",
        image: "ads/a.png",
        source: { kind: "file", path: join(dir, "ads", "a.png") },
        outcome: 0.031,
        copy: { adHeadline: "Run further", adBody: "Light shoes", pageName: "Trailco" },
        group: { campaign: "spring", audience: { id: "aud_123" }, goal: "click-through-rate" },
      },
      { line: 3, id: "b.png", image: join(dir, "ads", "b.png"), source: { kind: "file", path: join(dir, "ads", "b.png") }, outcome: 0.012, copy: null, group: { campaign: null, audience: { id: "aud_123" }, goal: "engagement" } },
    ]);
  });

  it("finds images relative to the dataset's folder, not the working directory", async () => {
    mkdirSync(join(dir, "sets"));
    const path = file("sets/set.csv", "image,outcome\n../ads/c.png,1\n");
    expect(outcomeRows(await readEvalDataset(path, RUNNERS))[0]!.source).toEqual({ kind: "file", path: join(dir, "ads", "c.png") });
  });

  it("reads JSON Lines: a copy object, https URLs (the URL is the default id), saved and inline audiences per row", async () => {
    const lines = [
      { image: "https://cdn.example.com/ads/hero.jpg", outcome: 2.5, copy: { adHeadline: "Go", adBody: "" }, audience_id: "aud_9", goal: "engagement" },
      { image: "ads/a.png", id: "hero-a", outcome: "-1.5e-2", audience: "Commuters", campaign: "autumn" },
    ];
    const dataset = await readEvalDataset(file("set.jsonl", lines.map((l) => JSON.stringify(l)).join("\n") + "\n"), RUNNERS);
    expect(dataset.format).toBe("jsonl");
    expect(outcomeRows(dataset)).toEqual([
      {
        line: 1,
        id: "https://cdn.example.com/ads/hero.jpg",
        image: "https://cdn.example.com/ads/hero.jpg",
        source: { kind: "url", url: "https://cdn.example.com/ads/hero.jpg" },
        outcome: 2.5,
        copy: { adHeadline: "Go" },
        group: { campaign: null, audience: { id: "aud_9" }, goal: "engagement" },
      },
      { line: 2, id: "hero-a", image: "ads/a.png", source: { kind: "file", path: join(dir, "ads", "a.png") }, outcome: -0.015, copy: null, group: { campaign: "autumn", audience: { name: "Commuters" }, goal: "purchase-intent" } },
    ]);
  });

  it("refuses an empty or missing image or outcome, naming the file, the line and what to give", async () => {
    let path = file("set.csv", "image,outcome\nads/a.png,1\n,2\n");
    expect(await refusal(path)).toBe(`${path} line 3: image is empty; give an image file path or an https:// URL`);
    path = file("set.csv", "image,outcome\nads/a.png,\n");
    expect(await refusal(path)).toMatch(/set\.csv line 2: outcome is empty; give the observed result as a number, higher is better/);
    path = file("set.csv", "image\nads/a.png\n");
    expect(await refusal(path)).toMatch(/set\.csv line 1: the header has no outcome column/);
    path = file("set.jsonl", `{"image":"ads/a.png","outcome":1}\n\n{"image":"ads/b.png","campaign":"x"}\n`);
    expect(await refusal(path)).toMatch(/set\.jsonl line 3: has no outcome; give the observed result/);
  });

  it("refuses an outcome that is no finite number, with a hint for percentages", async () => {
    expect(await refusal(file("set.csv", "image,outcome\nads/a.png,high\n"))).toMatch(/line 2: outcome "high" is not a number$/);
    expect(await refusal(file("set.csv", "image,outcome\nads/a.png,1.2%\n"))).toMatch(/line 2: outcome "1.2%" is not a number \(write 1.2% as 1.2 or 0.012\)/);
    expect(await refusal(file("set.csv", "image,outcome\nads/a.png,1e999\n"))).toMatch(/line 2: outcome "1e999" is too large to be a finite number/);
    expect(await refusal(file("set.csv", "image,outcome\nads/a.png,0x10\n"))).toMatch(/line 2: outcome "0x10" is not a number/);
    expect(await refusal(file("set.jsonl", `{"image":"ads/a.png","outcome":true}\n`))).toMatch(/line 1: outcome must be a number, not boolean true/);
  });

  it("accepts only https URLs: http and other schemes are refused with the reason", async () => {
    expect(await refusal(file("set.csv", "image,outcome\nads/a.png,1\nhttp://cdn.example.com/b.png,2\n"))).toMatch(/line 3: image: "http:\/\/cdn.example.com\/b.png" is an http:\/\/ URL; the API fetches only https:\/\/ URLs/);
    expect(await refusal(file("set.csv", "image,outcome\nftp://cdn.example.com/b.png,2\n"))).toMatch(/line 2: image: "ftp:\/\/cdn.example.com\/b.png" is a ftp: URL; give an https:\/\/ URL or a file path/);
    expect(await refusal(file("set.csv", "image,outcome\nhttps://exa mple.com/b.png,2\n"))).toMatch(/line 2: image: "https:\/\/exa mple.com\/b.png" is not a valid URL/);
  });

  it("refuses a missing image file, and a file that is no image", async () => {
    expect(await refusal(file("set.csv", "image,outcome\nads/a.png,1\nads/missing.png,2\n"))).toBe(`${join(dir, "set.csv")} line 3: image: no such image file "ads/missing.png" (looked for ${join(dir, "ads", "missing.png")})`);
    expect(await refusal(file("set.csv", "image,outcome\nads/notes.txt,1\n"))).toMatch(/line 2: image: "ads\/notes.txt" is not a PNG, JPEG, WebP or GIF image/);
    expect(await refusal(file("set.csv", "image,outcome\nads,1\n"))).toMatch(/line 2: image: "ads" is not a file/);
  });

  it("refuses a repeated id, naming both lines and how to fix it", async () => {
    mkdirSync(join(dir, "more"));
    writeFileSync(join(dir, "more", "a.png"), png);
    expect(await refusal(file("set.csv", "image,outcome\nads/a.png,1\nads/b.png,2\nmore/a.png,3\n"))).toMatch(/line 4: the id "a.png" repeats line 2; ids must be unique .*needs an id column/);
    expect(await refusal(file("set.csv", "image,id,outcome\nads/a.png,x,1\nads/b.png,x,2\n"))).toMatch(/line 3: the id "x" repeats line 2/);
    const ok = await readEvalDataset(file("set.csv", "image,id,outcome\nads/a.png,a1,1\nads/a.png,a2,2\n"), RUNNERS);
    expect(outcomeRows(ok).map((r) => r.id)).toEqual(["a1", "a2"]);
  });

  it("refuses an unknown goal with the closest one, in a row or in --goal", async () => {
    expect(await refusal(file("set.csv", "image,outcome,goal\nads/a.png,1,purchse-intent\n"))).toMatch(/line 2: unknown goal "purchse-intent"; did you mean "purchase-intent"\?/);
    expect(await refusal(file("set.csv", "image,outcome\nads/a.png,1\n"), { ...RUNNERS, goal: "engagment" })).toBe('unknown goal "engagment"; did you mean "engagement"?');
  });

  it("refuses unknown columns, suggesting the one meant and listing the known ones (a typo must not drop data)", async () => {
    const message = await refusal(file("set.csv", "image,outcom,campaign\nads/a.png,1,x\n"));
    expect(message).toMatch(/set\.csv line 1: unknown column "outcom"; did you mean "outcome" for "outcom"\? Known columns: outcome rows image, outcome, id, headline, body, caption, description, page_name, copy; pair rows image_a, image_b, winner; both campaign, audience, audience_id, goal/);
    expect(await refusal(file("set.jsonl", `{"image":"ads/a.png","outcome":1}\n{"image":"ads/b.png","outcome":2,"clicks":4}\n`))).toMatch(/set\.jsonl line 2: unknown column "clicks"\. Known columns/);
    expect(await refusal(file("set.csv", "image,outcome,copy\nads/a.png,1,Go\n"))).toMatch(/line 1: a copy column is for JSON Lines .* in CSV give the columns headline, body, caption, description, page_name/);
  });

  it("refuses both audience and audience_id in one row, and a row with no audience and no flag", async () => {
    expect(await refusal(file("set.csv", "image,outcome,audience,audience_id\nads/a.png,1,Runners,\nads/b.png,2,Runners,aud_1\n"))).toMatch(/line 3: gives both audience and audience_id; .*leave one of them empty/);
    expect(await refusal(file("set.csv", "image,outcome\nads/a.png,1\n"), {})).toMatch(/line 2: has no audience; give an audience \(name\) or audience_id column, or pass --audience-name or --audience-id/);
  });

  it("refuses a copy object together with copy columns", async () => {
    expect(await refusal(file("set.jsonl", `{"image":"ads/a.png","outcome":1,"headline":"Go","copy":{"adBody":"Run"}}\n`))).toMatch(/line 1: gives both a copy object and copy columns/);
  });
});

describe("readEvalDataset: labelled pairs", () => {
  it("reads pair rows, the winner in either case", async () => {
    const dataset = await readEvalDataset(file("pairs.csv", "image_a,image_b,winner,campaign\nads/a.png,ads/b.png,A,spring\nads/c.png,https://cdn.example.com/d.png,b,\n"), RUNNERS);
    expect(dataset.kind).toBe("pairs");
    expect(pairRows(dataset)).toEqual([
      { line: 2, a: { image: "ads/a.png", source: { kind: "file", path: join(dir, "ads", "a.png") } }, b: { image: "ads/b.png", source: { kind: "file", path: join(dir, "ads", "b.png") } }, winner: "a", group: { campaign: "spring", audience: { name: "Trail runners" }, goal: "purchase-intent" } },
      { line: 3, a: { image: "ads/c.png", source: { kind: "file", path: join(dir, "ads", "c.png") } }, b: { image: "https://cdn.example.com/d.png", source: { kind: "url", url: "https://cdn.example.com/d.png" } }, winner: "b", group: { campaign: null, audience: { name: "Trail runners" }, goal: "purchase-intent" } },
    ]);
  });

  it("refuses a winner other than a or b, an image paired with itself, and a missing side", async () => {
    expect(await refusal(file("pairs.csv", "image_a,image_b,winner\nads/a.png,ads/b.png,c\n"))).toMatch(/line 2: winner "c" must be a or b/);
    expect(await refusal(file("pairs.csv", "image_a,image_b,winner\nads/a.png,ads/b.png,\n"))).toMatch(/line 2: winner is empty; give a or b/);
    expect(await refusal(file("pairs.csv", "image_a,image_b,winner\nads/a.png,./ads/a.png,a\n"))).toMatch(/line 2: image_a and image_b are the same image/);
    expect(await refusal(file("pairs.csv", "image_a,image_b,winner\nads/a.png,,a\n"))).toMatch(/line 2: image_b is empty/);
    expect(await refusal(file("pairs.csv", "image_a,winner\nads/a.png,a\n"))).toMatch(/line 1: the header has no image_b column; labelled pairs need image_a, image_b and winner/);
  });

  it("refuses a file that mixes outcome and pair columns", async () => {
    expect(await refusal(file("set.csv", "image,outcome,image_a,image_b,winner\nads/a.png,1,ads/b.png,ads/c.png,a\n"))).toMatch(/line 1: the header mixes outcome columns \(image, outcome\) with pair columns \(image_a, image_b, winner\).*two files/);
    expect(await refusal(file("set.jsonl", `{"image":"ads/a.png","outcome":1}\n{"image_a":"ads/a.png","image_b":"ads/b.png","winner":"a"}\n`))).toMatch(/set\.jsonl line 2: a labelled pair row in a file of outcome rows/);
    expect(await refusal(file("set.csv", "campaign,goal\nx,engagement\n"))).toMatch(/line 1: the header has neither outcome columns/);
  });
});

describe("groupLabel", () => {
  it("reads campaign / audience / goal, without a campaign when there is none", () => {
    expect(groupLabel({ campaign: "spring", audience: { name: "Trail runners" }, goal: "engagement" })).toBe("spring / Trail runners / engagement");
    expect(groupLabel({ campaign: null, audience: { id: "aud_1" }, goal: "purchase-intent" })).toBe("aud_1 / purchase-intent");
  });
});

describe("the synthetic fixture in examples/eval", () => {
  const fixture = syntheticFixture();
  const csvRows = (name: string) =>
    readFileSync(join(EXAMPLES, name), "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split(","));

  it("is what the generator writes now (edit both together: node scripts/eval/generate-synthetic-fixture.ts)", () => {
    const committed = [...readdirSync(join(EXAMPLES, "images")).map((f) => `images/${f}`), ...readdirSync(EXAMPLES).filter((f) => f.endsWith(".csv"))].sort();
    expect(committed).toEqual([...fixture.files.keys()].sort());
    for (const [path, bytes] of fixture.files) {
      const onDisk = readFileSync(join(EXAMPLES, path));
      // Pixels, not compressed bytes: another zlib may pack the same pixels differently.
      if (path.endsWith(".png")) expect(decodePng(onDisk), path).toEqual(decodePng(bytes));
      else expect(onDisk.toString("utf8"), path).toBe(bytes.toString("utf8"));
    }
    expect(fixture.creatives).toHaveLength(CAMPAIGNS.length * PER_CAMPAIGN);
  });

  it("has a shuffled control that permutes each campaign's outcomes among its own creatives", () => {
    const real = csvRows("synthetic.csv");
    const control = csvRows("synthetic-shuffled.csv");
    expect(control.map((r) => [r[0], r[1], r[3], r[4]])).toEqual(real.map((r) => [r[0], r[1], r[3], r[4]]));
    for (const { campaign } of CAMPAIGNS) {
      const outcomes = (rows: string[][]) => rows.filter((r) => r[3] === campaign).map((r) => Number(r[2]));
      expect(outcomes(control).toSorted((a, b) => a - b)).toEqual(outcomes(real).toSorted((a, b) => a - b));
      expect(outcomes(control)).not.toEqual(outcomes(real));
    }
  });

  it("labels each pair's winner as the creative with the higher outcome, inside one campaign", () => {
    const outcomeOf = new Map(csvRows("synthetic.csv").map((r) => [r[0]!, { outcome: Number(r[2]), campaign: r[3] }]));
    const pairs = csvRows("synthetic-pairs.csv");
    expect(pairs.length).toBeGreaterThanOrEqual(10);
    for (const [a, b, winner, campaign] of pairs) {
      const [left, right] = [outcomeOf.get(a!)!, outcomeOf.get(b!)!];
      expect([left.campaign, right.campaign]).toEqual([campaign, campaign]);
      expect(winner).toBe(left.outcome > right.outcome ? "a" : "b");
    }
  });

  it("reads with readEvalDataset as 3 groups of 12, and as 10 labelled pairs", async () => {
    const real = await readEvalDataset(join(EXAMPLES, "synthetic.csv"), RUNNERS);
    const groups = new Map<string, number>();
    for (const row of outcomeRows(real)) groups.set(groupLabel(row.group), (groups.get(groupLabel(row.group)) ?? 0) + 1);
    expect(Object.fromEntries(groups)).toEqual({
      "spring-sale / Trail runners / purchase-intent": 12,
      "summer-launch / Trail runners / click-through-rate": 12,
      "autumn-promo / Trail runners / scroll-stopping": 12,
    });
    await expect(readEvalDataset(join(EXAMPLES, "synthetic-shuffled.csv"), RUNNERS)).resolves.toMatchObject({ kind: "outcomes" });
    expect(pairRows(await readEvalDataset(join(EXAMPLES, "synthetic-pairs.csv"), RUNNERS))).toHaveLength(10);
  });
});
