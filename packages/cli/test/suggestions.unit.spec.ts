import { describe, expect, it } from "vitest";
import { ASSET_TYPES, GOALS } from "@adrank/sdk";
import { checkAssetType, checkGoal } from "../src/closed-list-flags.ts";
import { editDistance } from "../src/edit-distance.ts";
import { flagNames, parseFlags } from "../src/parse-flags.ts";
import { closestMatch, didYouMean } from "../src/suggestion.ts";
import { UsageError } from "../src/usage-error.ts";

const RANK_LIKE = { goal: { type: "string" }, json: { type: "boolean" }, refine: { type: "boolean" }, "audience-id": { type: "string" }, "audience-name": { type: "string" } } as const;

const usageMessage = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return { message: (err as UsageError).message, seeHelp: (err as UsageError).seeHelp };
  }
  throw new Error("no error thrown");
};

describe("edit distance", () => {
  it("counts inserts, deletes, substitutions and a swap of neighbours as one edit each", () => {
    expect(editDistance("", "")).toBe(0);
    expect(editDistance("abc", "")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("purchse-intent", "purchase-intent")).toBe(1);
    expect(editDistance("--jsno", "--json")).toBe(1);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("rank", "rank")).toBe(0);
    expect(editDistance("rnak", "rank")).toBe(1);
  });
});

describe("suggestions", () => {
  it("suggests the value meant, in its right casing, and nothing for a wild guess", () => {
    expect(closestMatch("purchse-intent", GOALS)).toBe("purchase-intent");
    expect(closestMatch("Purchase-Intent", GOALS)).toBe("purchase-intent");
    expect(closestMatch("social media post", ASSET_TYPES)).toBe("Social Media Post");
    expect(closestMatch("social-media-post", ASSET_TYPES)).toBe("Social Media Post");
    expect(closestMatch("advertisment", ASSET_TYPES)).toBe("Advertisement");
    expect(closestMatch("scroll", GOALS)).toBe("scroll-stopping");
    expect(closestMatch("world-domination", GOALS)).toBeNull();
    expect(closestMatch("x", ["rank", "pairwise"])).toBeNull();
    // A start shared by two values is no suggestion.
    expect(closestMatch("logo", GOALS)).toBeNull();
    expect(didYouMean("--jsn", ["--json", "--goal"], false)).toBe("; did you mean --json?");
    expect(didYouMean("rnak", ["rank", "pairwise"])).toBe('; did you mean "rank"?');
    expect(didYouMean("zzz", ["rank"])).toBe("");
  });

  it("refuses a goal or asset type outside the closed lists, with the one meant or the whole list", () => {
    expect(() => checkGoal(undefined)).not.toThrow();
    expect(() => checkGoal("scroll-stopping")).not.toThrow();
    expect(() => checkAssetType("Social Media Post")).not.toThrow();
    expect(usageMessage(() => checkGoal("purchse-intent"))).toEqual({ message: 'unknown goal "purchse-intent"; did you mean "purchase-intent"?', seeHelp: false });
    expect(usageMessage(() => checkGoal("PURCHASE-INTENT")).message).toBe('unknown goal "PURCHASE-INTENT"; did you mean "purchase-intent"?');
    expect(usageMessage(() => checkAssetType("product photo")).message).toBe('unknown asset type "product photo"; did you mean "Product Photo"?');
    expect(usageMessage(() => checkGoal("world-domination")).message).toBe(`unknown goal "world-domination"; one of ${GOALS.join(", ")}`);
    expect(usageMessage(() => checkAssetType("Billboard")).message).toMatch(/^unknown asset type "Billboard"; one of "Social Media Post", Advertisement, "Product Photo", /);
  });
});

describe("flags", () => {
  it("parses what a command accepts, --no- forms of switches included", () => {
    const { values, positionals } = parseFlags(["a.png", "--goal", "engagement", "--no-refine", "--json"], RANK_LIKE, { allowPositionals: true, allowNegative: true });
    expect(values).toEqual({ goal: "engagement", refine: false, json: true });
    expect(positionals).toEqual(["a.png"]);
    expect(flagNames({ json: { type: "boolean" }, goal: { type: "string" } }, true)).toEqual(["--json", "--goal", "--no-json"]);
  });

  it("names an unknown flag and the one probably meant, in one line without parseArgs' quotes", () => {
    expect(usageMessage(() => parseFlags(["a.png", "--jsn"], RANK_LIKE, { allowPositionals: true }))).toEqual({ message: "unknown flag --jsn; did you mean --json?", seeHelp: false });
    expect(usageMessage(() => parseFlags(["--audience-nme", "X"], RANK_LIKE)).message).toBe("unknown flag --audience-nme; did you mean --audience-name?");
    expect(usageMessage(() => parseFlags(["--no-refin"], RANK_LIKE, { allowNegative: true })).message).toBe("unknown flag --no-refin; did you mean --no-refine?");
    expect(usageMessage(() => parseFlags(["--no-goal"], RANK_LIKE, { allowNegative: true })).message).toBe("unknown flag --no-goal; did you mean --goal?");
    expect(usageMessage(() => parseFlags(["--colour"], RANK_LIKE))).toEqual({ message: "unknown flag --colour", seeHelp: true });
    expect(usageMessage(() => parseFlags(["-x"], RANK_LIKE)).message).toBe("unknown flag -x");
  });

  it("says which flag lacks its value, which takes none, and which argument was not expected", () => {
    expect(usageMessage(() => parseFlags(["--goal"], RANK_LIKE)).message).toBe("--goal needs a value");
    expect(usageMessage(() => parseFlags(["--goal", "--json"], RANK_LIKE)).message).toBe('--goal needs a value (for one starting with "-", write --goal=--json)');
    expect(usageMessage(() => parseFlags(["--json=yes"], RANK_LIKE)).message).toBe("--json takes no value");
    expect(usageMessage(() => parseFlags(["extra"], { json: { type: "boolean" } })).message).toBe('unexpected argument "extra"');
  });
});
