import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { audienceMatrix } from "../src/audience-matrix.ts";
import { rankCommand } from "../src/commands/rank.ts";
import { displayWidth } from "../src/display-width.ts";
import { htmlAudiencesReport } from "../src/html-audiences-report.ts";
import { audiencesOutput } from "../src/result-output.ts";
import { dataUriOf, rankAudiencesResponse, REQUEST_ID, responseOf } from "./support/rank-audiences-response.ts";
import { jsonAnswer, startScriptedApi, type Handler, type ScriptedApi, type Seen } from "./support/scripted-api.ts";
import type { z } from "zod";
import { parseWith, RankAudiencesRequest, RankRequest } from "@adrank/contracts";

// `adrank rank` with several audiences: the matrix it prints, the flags that choose the
// audiences and what it refuses before sending, the plain ranking it still makes for one
// audience, and the HTML report's chart. The binary runs against a local server speaking the
// API's wire format; each test scripts the answers and reads back what was sent.

const CLI = join(import.meta.dirname, "../src/main.ts");
const KEY = "agk_test_audiences";
const IMAGES = ["spring-sale.png", "summer-launch.png", "autumn-promo.png"];
const name = (id: string | null, url: string) => id ?? url.slice(0, 40);

let api: ScriptedApi;
let baseUrl: string;
let script: Handler[] = [];
let seen: Seen[] = [];
let dir: string;

const json = jsonAnswer(REQUEST_ID);

const CONTRACT: Record<string, z.ZodType> = { "/api/v1/rank": RankRequest, "/api/v1/rank/audiences": RankAudiencesRequest };
const refusalOf = (request: Seen) => {
  const schema = request.method === "POST" ? CONTRACT[request.url] : undefined;
  const parsed = schema ? parseWith(schema, request.body) : { ok: true as const };
  return parsed.ok ? null : parsed.error;
};

const adrank = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: dir, env: { PATH: process.env.PATH ?? "", ADRANK_API_KEY: KEY, ADRANK_BASE_URL: baseUrl }, timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });

const sink = (isTTY: boolean) => {
  const chunks: string[] = [];
  const stream = { isTTY, write: (s: string) => chunks.push(s) > 0 } as unknown as NodeJS.WriteStream;
  return { stream, text: () => chunks.join("") };
};

const status = (done: number, total: number, over: Record<string, unknown> = {}) => ({
  object: "request",
  request_id: REQUEST_ID,
  operation: "rank_audiences",
  status: "running",
  created_at: "2026-12-01T10:00:00.000Z",
  finished_at: null,
  progress: { done, total, unit: "assets" },
  result_url: `/api/v1/requests/${REQUEST_ID}`,
  webhook: null,
  error: null,
  ...over,
});

const RANK = ["rank", ...IMAGES, "--audience-name", "Bargain hunters", "--audience-id", "aud_skeptics01", "--audience-name", "Deal seekers"];

beforeAll(async () => {
  // As strict as the gateway about what it is sent: a body that breaks the contract is its 422.
  api = await startScriptedApi(REQUEST_ID, { next: () => script.shift(), record: (request) => seen.push(request), refuse: refusalOf });
  baseUrl = api.baseUrl;
  dir = await mkdtemp(join(tmpdir(), "adrank-cli-audiences-"));
  // A PNG signature is all the CLI reads of an image: the server here decodes nothing.
  for (const image of IMAGES) await writeFile(join(dir, image), Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(image)]));
});

afterAll(async () => {
  await api.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  script = [];
  seen = [];
});

describe("the audience matrix", () => {
  it("shows each image's score and rank per audience, marks the reversals and says which persona made no difference", () => {
    expect(audienceMatrix(rankAudiencesResponse(), name).split("\n")).toEqual([
      "  image              Bargain hunters  Skeptics  Deal seekers  spread  best",
      "  -----------------  ---------------  --------  ------------  ------  ---------------",
      "↕ spring-sale.png    3.90 #1          2.80 #3   3.88 #1       1.10    Bargain hunters",
      "↕ summer-launch.png  3.20 #2          3.60 #1   3.22 #2       0.40    Skeptics",
      "  autumn-promo.png   3.05 #3          3.10 #2   3.02 #3       0.08    Skeptics",
      "↕ = in a reversal (below): two audiences order this image and another one the other way round",
      "Too close to call (p between 40 % and 60 %): 1 of 2 neighbouring pairs for Bargain hunters, 1 of 2 for Skeptics, 1 of 2 for Deal seekers",
      "",
      "Reversals, each order beyond noise (scores before close-pair refinement):",
      "  spring-sale.png ▲ over summer-launch.png for Bargain hunters (3.90 vs 3.20), ▼ for Skeptics",
      "    (2.80 vs 3.60); swing 1.50",
      "  spring-sale.png ▲ over summer-launch.png for Deal seekers (3.88 vs 3.22), ▼ for Skeptics",
      "    (2.80 vs 3.60); swing 1.46",
      "",
      "Audience sensitivity (how alike two audiences rank the images):",
      "  Bargain hunters vs Skeptics: rank correlation -0.50 over 3 images; largest score change 1.10",
      "  Bargain hunters vs Deal seekers: rank correlation +1.00 over 3 images; largest score change 0.03",
      "  ⚠ persona made no difference: Bargain hunters and Deal seekers scored every image alike within",
      "    noise",
      "  Skeptics vs Deal seekers: rank correlation -0.50 over 3 images; largest score change 1.08",
      "",
      "9 ranked, 0 failed over 3 audiences; 9 credits used, 91 left",
      "Models: generators sim:sim-gen-a, sim:sim-gen-b · embedder sim:sim-embed · voters sim:sim-voter",
      "SIMULATED: these scores come from the offline sim model (pixel statistics and copy heuristics), not a language model.",
    ]);
  });

  it("fits 100 columns for five audiences with long names, cutting them with … and printing a key", () => {
    const audiences = ["Bargain hunters in the American Midwest who wait for sales", "Skeptics of every advertisement they see online", "広告を信じない人たち、特に若者", "Parents of toddlers shopping on their phones at night", "Retired hikers"];
    const images = ["spring-sale-final-version-2-approved-by-legal.png", "summer-launch.png", "autumn.png"];
    const response = responseOf({ images, audiences: audiences.map((a, j) => ({ name: a, scores: images.map((_, i) => 2 + ((i * 7 + j * 3) % 20) / 10) })), reversals: [{ a: 0, b: 1, prefersA: 0, prefersB: 1 }] });
    const lines = audienceMatrix(response, name).split("\n");
    const table = lines.slice(0, lines.indexOf("Audiences:"));
    for (const line of table) expect(displayWidth(line), line).toBeLessThanOrEqual(100);
    expect(table[0]).toMatch(/^ {2}image +A Bargain\S*… +B Skeptic\S*… +C 広告\S*… +D Parents\S*… +E Retired\S* +spread +best$/);
    expect(table[2]).toMatch(/^↕ spring-sale-final-ver\S*… +2\.00 #3 +2\.30 #3 +2\.60 #2 +2\.90 #2 +3\.20 #2 +1\.20 +E$/);
    // Every column starts where its header does, whatever the width of the characters before it.
    const startOf = (line: string, text: string) => displayWidth(line.slice(0, line.indexOf(text)));
    expect(startOf(table[2]!, "3.20 #2")).toBe(startOf(table[0]!, "E Retired"));
    expect(lines.slice(lines.indexOf("Audiences:") + 1, lines.indexOf("Audiences:") + 6)).toEqual(audiences.map((a, j) => `  ${"ABCDE"[j]} = ${a}`));
    expect(lines).toContain("Too close to call (p between 40 % and 60 %): 1 of 2 neighbouring pairs for A, 1 of 2 for B, 1 of 2 for C, 1 of 2 for D, 1 of 2 for E");
  });

  it("cuts only a long file name when the audiences' names fit beside it", () => {
    const long = `${"a-very-long-creative-name-".repeat(4)}final.png`;
    const response = responseOf({ images: [long, "b.png"], audiences: [{ name: "Runners", scores: [4, 3] }, { name: "Walkers", scores: [3.5, 3.4] }] });
    const [header, , first] = audienceMatrix(response, name).split("\n");
    expect(header).toMatch(/^ {2}image +Runners +Walkers +spread +best$/);
    expect(first).toMatch(/^ {2}a-very-long-creative-name-a-very\S*… +4\.00 #1 +3\.50 #1 +0\.50 +Runners$/);
    expect(displayWidth(first!)).toBeLessThanOrEqual(100);
    expect(audienceMatrix(response, name)).not.toContain("Audiences:");
  });

  it("says where an image failed for an audience, and prints server text without terminal escapes", () => {
    const base = rankAudiencesResponse({ skeptics: "Skep\x1b[31mtics" });
    const failed = {
      ...base,
      comparison: base.comparison.map((c, i) => (i === 2 ? { ...c, scores: c.scores.map((s, j) => (j === 1 ? { ...s, score: null, score_before_refine: null, rank: null } : s)) } : c)),
      by_audience: base.by_audience.map((a, j) => (j === 1 ? { ...a, ranked: a.ranked.filter((r) => r.asset_id !== "autumn-promo.png"), errors: [{ asset_url: dataUriOf("autumn-promo.png"), asset_id: "autumn-promo.png", error: "The image could not\nbe decoded." }] } : a)),
    };
    const lines = audienceMatrix(failed, name).split("\n");
    expect(lines[4]).toMatch(/^ {2}autumn-promo\.png +3\.05 #3 +failed +3\.02 #3 /);
    expect(lines).toContain("failed for Skep?[31mtics: autumn-promo.png: The image could not be decoded.");
    expect(lines.join("\n")).not.toContain("\x1b");
  });

  it("says when no two audiences disagree beyond noise", () => {
    const agreeing = responseOf({ images: ["a.png", "b.png"], audiences: [{ name: "Runners", scores: [4, 3] }, { name: "Walkers", scores: [3.9, 3.1] }] });
    const text = audienceMatrix(agreeing, name);
    expect(text).toContain("\nNo reversals: no two audiences order any two images the other way round beyond noise.\n");
    expect(text).not.toContain("↕");
    expect(text).not.toContain("⚠");
  });
});

describe("adrank rank with several audiences", () => {
  it("sends the audiences in the order given to /api/v1/rank/audiences and prints the matrix", async () => {
    script = [json(200, rankAudiencesResponse())];
    const run = await adrank(RANK);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(audiencesOutput(rankAudiencesResponse(), { json: false, colour: false }));
    expect(run.stderr).toBe("ranking 3 images for 3 audiences…\n");
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(["POST /api/v1/rank/audiences"]);
    const body = seen[0]!.body!;
    expect(body.audiences).toEqual([{ name: "Bargain hunters" }, { audience_id: "aud_skeptics01" }, { name: "Deal seekers" }]);
    expect((body.assets as Array<{ id: string; url: string }>).map((a) => a.id)).toEqual(IMAGES);
    expect(body).not.toHaveProperty("audience");
    expect(seen[0]!.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("takes audiences from an --audiences file where the flag stands, demographics and all, and prints the API's JSON with --json", async () => {
    await writeFile(join(dir, "audiences.json"), JSON.stringify([{ name: "Skeptics", description: "Distrust ads", demographics: { adSkepticism: "very-high" } }, { audience_id: "aud_deals" }]));
    script = [json(200, rankAudiencesResponse())];
    const run = await adrank(["rank", ...IMAGES, "--audience-name", "Bargain hunters", "--audiences", "audiences.json", "--goal", "click-through-rate", "--no-refine", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    expect(seen[0]!.body).toMatchObject({
      audiences: [{ name: "Bargain hunters" }, { name: "Skeptics", description: "Distrust ads", demographics: { adSkepticism: "very-high" } }, { audience_id: "aud_deals" }],
      goal: "click-through-rate",
      refine_close_pairs: false,
    });
    const printed = JSON.parse(run.stdout);
    expect(printed.request_id).toBe(REQUEST_ID);
    expect(printed.by_audience[0].ranked[0].asset_url).toMatch(/^data:image\/png;base64,… \(\d+ B\)$/);
    expect(printed.reversals[0].asset_a.asset_url).toMatch(/^data:image\/png;base64,… /);
    expect(printed.audience_sensitivity).toEqual(rankAudiencesResponse().audience_sensitivity);
  });

  it.each([
    [["--audience-name", "Runners", "--audience-name", " runners "], 'adrank: --audience-name "Runners" and --audience-name " runners " are the same name (names are compared without regard to case or surrounding spaces) (see adrank --help)'],
    [["--audience-id", "aud_1", "--audience-id", "aud_1"], "adrank: --audience-id aud_1 and --audience-id aud_1 are the same saved audience (see adrank --help)"],
    [["--audience-name", "A", "--audience-name", "B", "--audience-description", "x"], "adrank: --audience-description goes with exactly one --audience-name, not 2; to describe several audiences, give them in an --audiences file (see adrank --help)"],
    [["--audience-id", "aud_1", "--audience-description", "x"], "adrank: --audience-description goes with --audience-name; a saved audience has its own (see adrank --help)"],
    [["A", "B", "C", "D", "E", "F"].flatMap((n) => ["--audience-name", n]), "adrank: 6 audiences given; a comparison takes 2 to 5 (run it again with the others) (see adrank --help)"],
    [["--audience-name", "", "--audience-name", "B"], "adrank: --audience-name must not be empty (see adrank --help)"],
    [["--audience-name", "x".repeat(201), "--audience-id", "aud_1"], "adrank: --audience-name must be at most 200 characters long (see adrank --help)"],
    [[], "adrank: give --audience-id <saved audience> or --audience-name <name> (repeat them, or give --audiences <file.json>, to compare 2 to 5 audiences) (see adrank --help)"],
  ])("refuses %j before sending anything", async (flags, line) => {
    const run = await adrank(["rank", ...IMAGES, ...flags]);
    expect(run).toEqual({ code: 2, stdout: "", stderr: `${line}\n` });
    expect(seen).toEqual([]);
  });

  it.each([
    ["missing.json", null, "adrank: --audiences missing.json: no such file (see adrank --help)"],
    ["bad.json", "[{", "adrank: --audiences bad.json: not valid JSON (see adrank --help)"],
    ["object.json", { name: "Runners" }, 'adrank: --audiences object.json must hold a JSON array of audiences: [{"name": "…", "description": "…", "demographics": {…}}, {"audience_id": "aud_…"}] (see adrank --help)'],
    ["strings.json", ["Runners", "Walkers"], 'adrank: --audiences strings.json: item 1 is not an object; give {"name": "…"} or {"audience_id": "…"} (see adrank --help)'],
    ["nameless.json", [{ name: "Runners" }, { description: "no name" }], 'adrank: --audiences nameless.json: item 2 has neither "name" nor "audience_id" (see adrank --help)'],
    ["ages.json", [{ name: "Runners" }, { name: "Walkers", demographics: { ageRange: "ninety" } }], "adrank: --audiences ages.json: item 2: demographics.ageRange must be one of: 18-24, 25-34, 35-44, 45-54, 55-64, 65+ (see adrank --help)"],
    ["both.json", [{ name: "Runners" }, { name: "Walkers", audience_id: "aud_1" }], "adrank: --audiences both.json: item 2 mixes the properties of its allowed forms; send exactly one of them (see adrank --help)"],
    ["extra.json", [{ name: "Runners", colour: "red" }, { name: "Walkers" }], "adrank: --audiences extra.json: item 1: colour is not an allowed property (see adrank --help)"],
    ["twice.json", [{ name: "Walkers" }, { name: "WALKERS" }], 'adrank: item 1 of twice.json and item 2 of twice.json are the same name (names are compared without regard to case or surrounding spaces) (see adrank --help)'],
  ])("refuses a bad --audiences file (%s), naming the file and the item", async (file, content, line) => {
    if (content !== null) await writeFile(join(dir, file), typeof content === "string" ? content : JSON.stringify(content));
    const run = await adrank(["rank", ...IMAGES, "--audiences", file]);
    expect(run).toEqual({ code: 2, stdout: "", stderr: `${line}\n` });
    expect(seen).toEqual([]);
  });

  it("refuses a file's name that repeats a flag's, naming both", async () => {
    await writeFile(join(dir, "repeat.json"), JSON.stringify([{ name: "Skeptics" }, { name: " bargain HUNTERS" }]));
    const run = await adrank(["rank", ...IMAGES, "--audience-name", "Bargain hunters", "--audiences", "repeat.json"]);
    expect(run.stderr).toBe('adrank: --audience-name "Bargain hunters" and item 2 of repeat.json are the same name (names are compared without regard to case or surrounding spaces) (see adrank --help)\n');
    expect(seen).toEqual([]);
  });

  it("gives the server's 422 on one line with its field", async () => {
    script = [json(422, { error: 'audiences[1].name must be unique among the request\'s audiences (compared without regard to case or surrounding spaces).', field: "audiences[1].name" })];
    const run = await adrank(RANK);
    expect(run.code).toBe(1);
    expect(run.stderr.trimEnd().split("\n").at(-1)).toBe(`adrank: 422 Unprocessable Entity: audiences[1].name must be unique among the request's audiences (compared without regard to case or surrounding spaces). [audiences[1].name] (request id ${REQUEST_ID})`);
  });
});

describe("adrank rank with one audience", () => {
  const rankResult = { ...rankAudiencesResponse().by_audience[0]!, request_id: REQUEST_ID };
  const { audience: _a, audience_id: _id, ...plainRanking } = rankResult;

  it("still makes the plain ranking, with the body it always sent", async () => {
    script = [json(200, plainRanking), json(200, plainRanking)];
    const run = await adrank(["rank", ...IMAGES, "--audience-name", "Bargain hunters", "--audience-description", "Waits for sales"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^rank\s+image\s+score/);
    expect(seen[0]!.url).toBe("/api/v1/rank");
    expect(Object.keys(seen[0]!.body!)).toEqual(["assets", "audience"]);
    expect(seen[0]!.body!.audience).toEqual({ name: "Bargain hunters", description: "Waits for sales" });
    await adrank(["rank", IMAGES[0]!, "--audience-id", "aud_1", "--goal", "engagement"]);
    expect(seen[1]).toMatchObject({ url: "/api/v1/rank", body: { audience_id: "aud_1", goal: "engagement" } });
    expect(Object.keys(seen[1]!.body!)).toEqual(["assets", "audience_id", "goal"]);
  });

  it("ranks for the one audience of an --audiences file, with its demographics", async () => {
    await writeFile(join(dir, "one.json"), JSON.stringify([{ name: "Skeptics", demographics: { adSkepticism: "very-high" } }]));
    script = [json(200, plainRanking)];
    const run = await adrank(["rank", ...IMAGES, "--audiences", "one.json"]);
    expect(run.code, run.stderr).toBe(0);
    expect(seen[0]).toMatchObject({ url: "/api/v1/rank", body: { audience: { name: "Skeptics", demographics: { adSkepticism: "very-high" } } } });
  });
});

describe("several audiences, asynchronously", () => {
  it("--async prints the id and counts the work in scorings, one asset for one audience", async () => {
    script = [json(202, status(0, 9))];
    const run = await adrank([...RANK, "--async"]);
    expect(run).toEqual({ code: 0, stdout: `${REQUEST_ID}\n`, stderr: `submitting 3 images for 3 audiences…\nrequest accepted (9 scorings); fetch the result with: adrank get ${REQUEST_ID} (add --wait to wait for it)\n` });
    expect(seen[0]).toMatchObject({ url: "/api/v1/rank/audiences", body: { async: true } });
  });

  it("--async --wait shows progress per image and audience, then prints what the synchronous call prints; adrank get prints it too", async () => {
    const matrix = audiencesOutput(rankAudiencesResponse(), { json: false, colour: false });
    script = [json(202, status(0, 9)), json(202, status(4, 9)), json(200, rankAudiencesResponse())];
    const run = await adrank([...RANK, "--async", "--wait"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.split("\n")).toEqual([
      "ranking 3 images for 3 audiences…",
      `request ${REQUEST_ID} accepted; waiting for it (Ctrl-C stops the wait, not the request: adrank get ${REQUEST_ID} fetches it later)`,
      "0 of 9 scorings done",
      "4 of 9 scorings done",
      "",
    ]);
    expect(run.stdout).toBe(matrix);

    script = [json(200, rankAudiencesResponse())];
    expect(await adrank(["get", REQUEST_ID])).toEqual({ code: 0, stdout: matrix, stderr: "" });
  }, 20_000);

  it("polls on a terminal, counting on one updating line", async () => {
    script = [json(202, status(0, 9)), json(202, status(6, 9)), json(200, rankAudiencesResponse())];
    const out = sink(false);
    const err = sink(true);
    await rankCommand([...RANK.slice(1).map((a) => (a.endsWith(".png") ? join(dir, a) : a))], { ADRANK_API_KEY: KEY, ADRANK_BASE_URL: baseUrl }, out.stream, err.stream);
    expect(seen[0]!.body!.async).toBe(true);
    expect(err.text()).toContain("ranking 3 images for 3 audiences");
    expect(err.text()).toContain("(6 of 9 scorings done)");
    expect(out.text()).toBe(audiencesOutput(rankAudiencesResponse(), { json: false, colour: false }));
  }, 20_000);
});

describe("the HTML report of several audiences", () => {
  const images = IMAGES.map((image) => ({ name: image, dataUri: dataUriOf(image) }));

  it("charts each creative's score per audience as inline SVG, with thumbnails, a legend and the reversals marked, then each audience's ranking", () => {
    const html = htmlAudiencesReport(rankAudiencesResponse(), images, "Ranking of 3 images for 3 audiences");
    const svg = /<svg [^>]*>[\s\S]*<\/svg>/.exec(html)![0];
    // One bar per creative and audience, in the audiences' colours, each saying what it is.
    expect(svg.match(/<rect /g)).toHaveLength(9);
    for (const audience of ["Bargain hunters", "Skeptics", "Deal seekers"]) {
      expect(svg).toContain(`<title>spring-sale.png for ${audience}: `);
      expect(html).toContain(`</span>${audience}</li>`);
      expect(html).toContain(`</span>For ${audience}</h2>`);
    }
    expect(svg).toContain("<title>spring-sale.png for Skeptics: 2.80, ranked #3</title>");
    expect(svg.match(/<image href="data:image\/png;base64,/g)).toHaveLength(3);
    // The two reversals: numbered brackets, and the creatives marked.
    expect(svg).toContain("<title>1. spring-sale.png ▲ over summer-launch.png for Bargain hunters (3.90 vs 3.20), ▼ for Skeptics (2.80 vs 3.60); swing 1.50</title>");
    expect(svg).toContain("↕ 2</text>");
    expect(svg).toContain(">↕ spring-sale.png</text>");
    expect(svg).toContain(">autumn-promo.png</text>");
    expect(html).toContain('<li class="no-difference">⚠ persona made no difference: Bargain hunters and Deal seekers scored every image alike within noise</li>');
    // Each audience's own ranking, as the one-audience report shows it.
    expect(html.match(/<article>/g)).toHaveLength(9);
    // Self-contained: nothing fetched, nothing run.
    expect(html).toContain(`content="default-src 'none'; img-src data:; style-src 'unsafe-inline'"`);
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });

  it("escapes a hostile audience name everywhere it appears", () => {
    const hostile = `</title><script>alert("pwned")</script><img src=x onerror=alert(1)>`;
    const html = htmlAudiencesReport(rankAudiencesResponse({ skeptics: hostile }), images, "Report");
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<img src=x");
    const escaped = "&lt;/title&gt;&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;";
    expect(html).toContain(`</span>${escaped}</li>`);
    expect(html).toContain(`<title>spring-sale.png for ${escaped}: 2.80, ranked #3</title>`);
    expect(html).toContain(`</span>For ${escaped}</h2>`);
  });

  it("is written by adrank rank --html with the local images as thumbnails", async () => {
    script = [json(200, rankAudiencesResponse())];
    const run = await adrank([...RANK, "--html", "audiences.html"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.endsWith("report written to audiences.html\n")).toBe(true);
    const html = await readFile(join(dir, "audiences.html"), "utf8");
    expect(html).toContain("<title>Ranking of 3 images for 3 audiences</title>");
    const local = `data:image/png;base64,${Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from("summer-launch.png")]).toString("base64")}`;
    expect(html).toContain(`<image href="${local}"`);
  });
});

describe("wrapWords", () => {
  it("breaks at spaces within the width, with a hanging indent, and never cuts a word", async () => {
    const { wrapWords } = await import("../src/display-width.ts");
    expect(wrapWords("one two three four", 11, "  ", "    ")).toEqual(["  one two", "    three", "    four"]);
    expect(wrapWords("a extraordinarily-long-word b", 8, "", "  ")).toEqual(["a", "  extraordinarily-long-word", "  b"]);
    // Wide characters count two columns.
    expect(wrapWords("日本 語", 5, "", "")).toEqual(["日本", "語"]);
  });
});
