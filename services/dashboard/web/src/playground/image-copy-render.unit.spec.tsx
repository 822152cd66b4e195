import { describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import type { RankAnswer, RankedAsset } from "./answers.ts";
import { ImageCopyFields } from "./ImageCopyFields.tsx";
import { NO_COPY, type CopyFields } from "./image-copy.ts";
import { RankResults } from "./RankResults.tsx";

// Copy for each image in the playground's form, and the copy lift of a ranking where only some images had copy.

const IMAGES = [
  { name: "spring-sale.png", dataUri: "data:spring" },
  { name: "summer-launch.png", dataUri: "data:summer" },
];
const form = (own: Record<string, CopyFields>, shared: CopyFields = NO_COPY, images = IMAGES) => renderToStaticMarkup(<ImageCopyFields images={images} own={own} shared={shared} onChange={() => {}} />);
const count = (html: string, needle: string) => html.split(needle).length - 1;

describe("copy for each image", () => {
  it("lists every picked image by name, collapsed, with a labelled headline and body of its own", () => {
    const html = form({});
    expect(html).toMatch(/^<details class="image-copy" data-testid="image-copy"><summary>Copy for each image \(optional\)<\/summary>/);
    expect(count(html, 'data-testid="image-copy-row"')).toBe(2);
    expect(html).toContain('role="group" aria-label="Copy for summer-launch.png"');
    expect(html).toContain('<img src="data:spring" alt=""/>spring-sale.png</span>');
    expect(html).toContain('aria-label="Headline for spring-sale.png"');
    expect(html).toContain('aria-label="Body for summer-launch.png"');
    expect(html).not.toMatch(/<details[^>]* open/);
  });

  it("shows each image's own copy, how many have some, and the shared copy where an image has none", () => {
    const html = form({ "spring-sale.png": { headline: "30% off", body: "" } }, { headline: "", body: "Shop now." });
    expect(html).toContain("<summary>Copy for each image (1 of 2 with their own)</summary>");
    expect(html).toContain('<input aria-label="Headline for spring-sale.png" placeholder="optional" name="imageHeadline" value="30% off"/>');
    expect(html).toContain('<input aria-label="Body for spring-sale.png" placeholder="Shop now." name="imageBody" value=""/>');
    expect(html).toContain('<input aria-label="Headline for summer-launch.png" placeholder="optional" name="imageHeadline" value=""/>');
  });

  it("is not there before any image is picked", () => {
    expect(form({}, NO_COPY, [])).toBe("");
  });

  it("renders names and copy as text, never as markup", () => {
    const evil = '<img src=x onerror="alert(1)">';
    const html = form({ [evil]: { headline: evil, body: "" } }, { headline: evil, body: "" }, [{ name: evil, dataUri: "data:x" }]);
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });
});

describe("a ranking where some images had copy and some not", () => {
  const asset = (rank: number, id: string, extra: Partial<RankedAsset>): RankedAsset => ({ rank, asset_id: id, asset_url: "", score: 4 - rank / 10, confidence: "medium", rationale: "Because", panel_outcome: null, ...extra });
  const answer: RankAnswer = {
    ranked: [asset(1, "spring-sale.png", { copy_context_included: true, copy_lift: 0.31 }), asset(2, "summer-launch.png", { copy_context_included: false, copy_lift: 0 })],
    errors: [],
    summary: { credits_used: 3, credits_remaining: 40 },
  };

  it("gives a copy lift only to the images sent with copy", () => {
    const html = renderToStaticMarkup(<RankResults answer={answer} images={IMAGES} withCopy={true} />);
    expect(count(html, 'data-testid="copy-lift"')).toBe(1);
    expect(html).toMatch(/copy lift \+0\.31/);
  });
});
