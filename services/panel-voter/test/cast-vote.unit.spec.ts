import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { createSimGenerator, type GenerateRequest, type Generator } from "@adrank/models";
import type { VoteJob } from "@adrank/bus-contracts";
import { castVote, VoteError } from "../src/index.ts";

async function svgJpeg(svg: string): Promise<Uint8Array> {
  return new Uint8Array(await sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer());
}

const crisp = () =>
  svgJpeg(`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><rect width="100%" height="100%" fill="#f4f1ea"/><circle cx="140" cy="180" r="90" fill="#e63946"/><rect x="220" y="120" width="120" height="140" fill="#1d3557"/></svg>`);
const murky = async () => new Uint8Array(await sharp(await crisp()).modulate({ brightness: 0.25 }).blur(12).jpeg().toBuffer());

const REF_A = "a".repeat(64);
const REF_B = "b".repeat(64);

function job(over: Partial<VoteJob> = {}): VoteJob {
  return {
    requestId: "7f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b",
    jobId: "7f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b_p0_v1",
    deadline: Date.now() + 60_000,
    voterId: "voter-1",
    seat: 0,
    persona: { audience: { name: "Runners", demographics: { ageRange: "25-34" } }, goal: "click-through-rate", platform: null, campaignType: null },
    assetTypes: ["Advertisement", "Advertisement"],
    images: [
      { ref: REF_A, mime: "image/jpeg", width: 400, height: 400 },
      { ref: REF_B, mime: "image/jpeg", width: 400, height: 400 },
    ],
    copy: [null, null],
    ...over,
  };
}

/** A voter that records what it was sent and answers with the given text. */
function scriptedVoter(text: string, model = "v1") {
  const seen: GenerateRequest[] = [];
  const voter: Generator = {
    provider: "script",
    model,
    temperature: 1,
    thinking: null,
    async generate(req) {
      seen.push(req);
      return { text, provider: "script", model, simulated: false, usage: { inputTokens: 1200, outputTokens: 40 } };
    },
  };
  return { voter, seen };
}

describe("castVote", () => {
  it("with sim, a clearly better image wins whichever position it is shown in", async () => {
    const images = new Map([[REF_A, await crisp()], [REF_B, await murky()]]);
    const deps = { voters: [createSimGenerator({ model: "sim-voter" })], loadImage: async (ref: string) => images.get(ref) ?? null };
    const shownFirst = await castVote(job(), deps, new AbortController().signal);
    expect(shownFirst).toMatchObject({ ok: true, model: "sim:sim-voter", choice: "first", simulated: true });
    expect(shownFirst.response).toMatch(/WINNER: 1\s*$/);
    const swapped = job({ images: [job().images[1], job().images[0]] });
    expect((await castVote(swapped, deps, new AbortController().signal)).choice).toBe("second");
  });

  it("sends the persona, the goal and two images by position, and nothing that names the assets", async () => {
    const images = new Map([[REF_A, await crisp()], [REF_B, await murky()]]);
    const { voter, seen } = scriptedVoter("Image 2 speaks to me.\nWINNER: 2");
    const outcome = await castVote(job({ copy: [{ adHeadline: "Run further" }, null] }), { voters: [voter], loadImage: async (ref) => images.get(ref) ?? null }, new AbortController().signal);
    expect(outcome).toMatchObject({ choice: "second", response: "Image 2 speaks to me.\nWINNER: 2", model: "script:v1" });
    const [req] = seen;
    expect(req!.images).toHaveLength(2);
    expect(req!.user).toContain("Image 1");
    expect(req!.user).toContain("Run further");
    const prompt = `${req!.system}\n${req!.user}`;
    for (const secret of [REF_A, REF_B, "7f1d2c3b", "voter-1"]) expect(prompt).not.toContain(secret);
  });

  it("an answer without a clear verdict is an invalid vote that keeps the raw response", async () => {
    const images = new Map([[REF_A, await crisp()], [REF_B, await crisp()]]);
    const { voter } = scriptedVoter("Honestly both are fine.\nWINNER: both");
    const outcome = await castVote(job(), { voters: [voter], loadImage: async (ref) => images.get(ref) ?? null }, new AbortController().signal);
    expect(outcome.choice).toBeNull();
    expect(outcome.response).toBe("Honestly both are fine.\nWINNER: both");
    expect(outcome.invalidReason).toMatch(/neither image 1 nor image 2/);
  });

  it("an expired image is a vote error, not a model call", async () => {
    const { voter, seen } = scriptedVoter("WINNER: 1");
    await expect(castVote(job(), { voters: [voter], loadImage: async () => null }, new AbortController().signal)).rejects.toBeInstanceOf(VoteError);
    expect(seen).toHaveLength(0);
  });

  it("a run cancelled while its images load makes no model call", async () => {
    const images = new Map([[REF_A, await crisp()], [REF_B, await murky()]]);
    const { voter, seen } = scriptedVoter("WINNER: 1");
    const cancel = new AbortController();
    const loadImage = async (ref: string) => (cancel.abort(new Error("run cancelled")), images.get(ref) ?? null);
    await expect(castVote(job(), { voters: [voter], loadImage }, cancel.signal)).rejects.toThrow("run cancelled");
    expect(seen).toEqual([]);
  });

  it("a mixed panel seats its models in turn, and each vote names its model and what it cost", async () => {
    const images = new Map([[REF_A, await crisp()], [REF_B, await murky()]]);
    const first = scriptedVoter("WINNER: 1", "alpha");
    const second = scriptedVoter("WINNER: 2", "beta");
    const deps = { voters: [first.voter, second.voter], loadImage: async (ref: string) => images.get(ref) ?? null };
    const outcomes = [];
    for (let seat = 0; seat < 5; seat++) outcomes.push(await castVote(job({ seat }), deps, new AbortController().signal));
    // Consecutive seats, so each model sees the pair in both orders (seats alternate ab, ba).
    expect(outcomes.map((o) => o.model)).toEqual(["script:alpha", "script:alpha", "script:alpha", "script:beta", "script:beta"]);
    expect(outcomes.map((o) => o.choice)).toEqual(["first", "first", "first", "second", "second"]);
    expect(outcomes[3]!.usage).toEqual({ model: "script:beta", calls: 1, inputTokens: 1200, outputTokens: 40 });
    expect(first.seen).toHaveLength(3);
    expect(second.seen).toHaveLength(2);
  });
});
