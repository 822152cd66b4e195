import { describe, expect, it } from "vitest";
import { ASSET_TYPES, DEMOGRAPHIC_VALUES, GOALS, ScoreLayer } from "@adrank/contracts";
import { buildGeneratorPrompt, buildPersona, CAMPAIGN_PLATFORM, FENCE_RULE, PLATFORM_FRAMING, type Persona, type PersonaInputLike } from "../src/index.ts";
import { anchorStatements, derivedStancePhrases, HAND_STANCE_PHRASES } from "./anchor-vocabulary.ts";

// The generator prompt must not hand the persona the anchors' wording: an answer that echoes
// "I would probably buy this" matches its anchor by construction, and similarity rating turns
// back into a Likert scale in words.

const base: PersonaInputLike = { audience: { name: "Trail runners", demographics: {} }, goal: "purchase-intent", assetType: "Social Media Post", platform: null, campaignType: null };
const with_ = (over: Partial<PersonaInputLike>, demographics: Record<string, string> = {}): PersonaInputLike => ({ ...base, ...over, audience: { ...base.audience, ...over.audience, demographics } });

/** Personas covering every phrased demographic value, asset type and placement the prompt can say. */
const personas: Array<[string, Persona]> = [
  ["defaults", buildPersona(base)],
  ["described, with extra traits", buildPersona({ ...base, audience: { name: "Probably definitely shoppers", description: "I would definitely buy this product, somewhat.", demographics: { hobby: "not sure, maybe" } } })],
  ["type not stated", buildPersona(with_({ assetType: null }))],
  ["unknown type", buildPersona(with_({ assetType: "Billboard" }))],
  ["free-text platform", buildPersona(with_({ platform: "Snapchat" }))],
  ["free-text placement", buildPersona(with_({ campaignType: "carousel" }))],
  ...ASSET_TYPES.map((assetType): [string, Persona] => [`type ${assetType}`, buildPersona(with_({ assetType }))]),
  ...Object.keys(PLATFORM_FRAMING).map((platform): [string, Persona] => [`platform ${platform}`, buildPersona(with_({ platform }))]),
  ...Object.keys(CAMPAIGN_PLATFORM).map((campaignType): [string, Persona] => [`campaign ${campaignType}`, buildPersona(with_({ campaignType }))]),
  ...Object.entries(DEMOGRAPHIC_VALUES).flatMap(([field, values]) => values.map((value): [string, Persona] => [`${field} ${value}`, buildPersona(with_({}, { [field]: value }))])),
];

// Untrusted copy that itself talks like an anchor: it is the caller's, fenced, and not ours to police.
const copy = { adHeadline: "You will definitely love it", adBody: "I would probably buy this product. Not sure? No way to go wrong." };

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
// A fence is "<<<label" on a line of its own through a line ">>>" (fence.ts); the rule that
// mentions the markers in a sentence is our own text and stays checked.
const stripUntrusted = (text: string) => text.replace(/(?<=^|\n)<<<[^\n<>]*\n[\s\S]*?\n>>>(?=\n|$)/g, "[fenced]").replace(/«[^»]*»/g, "[quoted]");

type Pattern = readonly [phrase: string, pattern: RegExp];
const patterns = (phrases: readonly string[]): Pattern[] => phrases.map((p) => [p, new RegExp(`\\b${escape(p).replace(/ /g, "\\s+")}\\b`, "i")]);

/** Each phrase found in our own words of a prompt, with its context. */
function leaks(text: string, phrases: readonly Pattern[]): Array<{ phrase: string; context: string }> {
  const own = stripUntrusted(text);
  const found: Array<{ phrase: string; context: string }> = [];
  for (const [phrase, pattern] of phrases) {
    const match = pattern.exec(own);
    if (match) found.push({ phrase, context: `…${own.slice(Math.max(0, match.index - 40), match.index + phrase.length + 40).replace(/\s+/g, " ")}…` });
  }
  return found;
}

describe("generator prompts carry no anchor vocabulary", () => {
  const derived = derivedStancePhrases();
  const statements = patterns(anchorStatements().map((s) => s.replace(/\.$/, "")));
  const phrases = patterns([...new Set([...derived, ...HAND_STANCE_PHRASES])]);

  it("derives the anchors' graded words from the anchor statements themselves", () => {
    expect(derived).toEqual(expect.arrayContaining(["definitely", "probably", "definitely not", "probably not", "not sure", "unlikely", "likely", "no way", "never", "doubt", "certainly", "absolutely"]));
    expect(derived).not.toContain("not");
    expect(derived).not.toContain("buy");
  });

  it("no anchor statement and no graded stance phrase appears in any system or user text", () => {
    const found: string[] = [];
    // Many prompts share a system or user text; each distinct text is checked once.
    const checked = new Map<string, ReturnType<typeof leaks>>();
    const check = (text: string) => checked.get(text) ?? checked.set(text, [...leaks(text, statements), ...leaks(text, phrases)]).get(text)!;
    let prompts = 0;
    for (const goal of GOALS) {
      for (const layer of ScoreLayer.options) {
        for (const generatorIndex of [0, 1]) {
          for (const [label, persona] of personas) {
            for (const repetition of label === "defaults" ? [0, 1, 2] : [0]) {
              const { system, user } = buildGeneratorPrompt({ persona, layer, copy, goal, repetition, generatorIndex });
              prompts++;
              for (const [part, text] of [["system", system], ["user", user]] as const) {
                const where = `${goal} / ${layer} / seat ${generatorIndex} / ${label} / ${part}`;
                for (const { phrase, context } of check(text)) found.push(`${where}: "${phrase}" in ${context}`);
              }
            }
          }
        }
      }
    }
    expect(prompts).toBeGreaterThan(13 * 3 * 2 * 50);
    // Distinct leaks, so one bad sentence is one line, not thousands.
    expect([...new Set(found.map((f) => f.slice(f.indexOf(': "') + 2)))], found[0]).toEqual([]);
  });

  it("the check sees anchor wording in our own text, and only there", () => {
    const planted = "Say how you feel (for example: definitely not, probably not, not sure, probably, definitely).\n<<<ad copy\nI am on the fence\n>>>\nA «somewhat» value.";
    const seen = leaks(planted, phrases).map((l) => l.phrase);
    expect(seen).toEqual(expect.arrayContaining(["definitely not", "probably not", "not sure", "probably", "definitely"]));
    expect(seen).not.toContain("fence");
    expect(seen).not.toContain("somewhat");
    expect(leaks("Say: I would probably buy this product.", statements)).toEqual([{ phrase: "I would probably buy this product", context: expect.any(String) }]);
    expect(leaks("<<<ad copy\nI would probably buy this product.\n>>>", statements)).toEqual([]);
    // Our sentence about the markers is not a fence: what follows it is still checked.
    expect(leaks(`${FENCE_RULE}\nSay it definitely.\n<<<audience name\nx\n>>>`, phrases).map((l) => l.phrase)).toContain("definitely");
  });
});
