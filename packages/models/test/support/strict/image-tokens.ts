/**
 * What an image costs in prompt tokens, by each provider's published formula, from its pixel
 * size (image-size.ts). The fakes use these to count prompts and what their caches serve.
 */

/** The fakes' approximation of text tokens: about four characters a token (no tokenizer is shipped with them). */
export const textTokens = (text: string): number => Math.ceil(text.length / 4);

/**
 * OpenAI, high detail (the default "auto" for images this size), from
 * https://developers.openai.com/api/docs/guides/images-vision ("Calculating costs"):
 * - tile models: fit within 2048 x 2048, scale the shortest side down to 768, count 512-px
 *   tiles; base + tiles x tile tokens (gpt-4o, gpt-4.1, gpt-4.5: 85 + 170 each; gpt-5: 70 + 140;
 *   o1, o3: 75 + 150);
 * - patch models: 32-px patches, scaled down to at most 1536 of them, times the model's
 *   multiplier (gpt-4.1-mini and gpt-5-mini 1.62, gpt-4.1-nano and gpt-5-nano 2.46, o4-mini 1.72).
 */
export function openaiImageTokens(model: string, width: number, height: number): number {
  const patch = PATCH_MULTIPLIERS.find(([match]) => match.test(model))?.[1];
  if (patch !== undefined) return Math.ceil(patches(width, height) * patch);
  const [base, tile] = TILE_COSTS.find(([match]) => match.test(model))?.[1] ?? [85, 170];
  let w = width;
  let h = height;
  if (w > 2048 || h > 2048) {
    const r = 2048 / Math.max(w, h);
    w = Math.floor(w * r);
    h = Math.floor(h * r);
  }
  if (Math.min(w, h) > 768) {
    const r = 768 / Math.min(w, h);
    w = Math.floor(w * r);
    h = Math.floor(h * r);
  }
  return base + Math.ceil(w / 512) * Math.ceil(h / 512) * tile;
}

const PATCH_MULTIPLIERS: ReadonlyArray<[RegExp, number]> = [
  [/^(gpt-4\.1-mini|gpt-5-mini)/, 1.62],
  [/^(gpt-4\.1-nano|gpt-5-nano)/, 2.46],
  [/^o4-mini/, 1.72],
];
const TILE_COSTS: ReadonlyArray<[RegExp, [number, number]]> = [
  [/^gpt-5/, [70, 140]],
  [/^(o1|o3)/, [75, 150]],
  [/^(gpt-4o|gpt-4\.1|gpt-4\.5)/, [85, 170]],
];

/** 32-px patches, the image scaled down until at most 1536 of them remain (images-vision guide). */
function patches(width: number, height: number): number {
  const raw = Math.ceil(width / 32) * Math.ceil(height / 32);
  if (raw <= 1536) return raw;
  let shrink = Math.sqrt((32 * 32 * 1536) / (width * height));
  shrink *= Math.min(Math.floor((width * shrink) / 32) / ((width * shrink) / 32), Math.floor((height * shrink) / 32) / ((height * shrink) / 32));
  return Math.ceil((width * shrink) / 32) * Math.ceil((height * shrink) / 32);
}

/**
 * Claude, on Anthropic's API and on Bedrock: an image whose long edge is over 1568 px is scaled
 * down to it, then it costs width x height / 750 tokens
 * (https://platform.claude.com/docs/en/build-with-claude/vision, "Evaluate image size").
 */
export function claudeImageTokens(width: number, height: number): number {
  const r = Math.min(1, 1568 / Math.max(width, height));
  return Math.ceil((Math.round(width * r) * Math.round(height * r)) / 750);
}

/**
 * Gemini 2.x: an image with both sides at most 384 px is 258 tokens; a larger one is "cropped
 * and scaled as needed into tiles of 768x768 pixels, each counted as 258 tokens"
 * (https://ai.google.dev/gemini-api/docs/tokens, images): ceil(w / 768) x ceil(h / 768) tiles.
 */
export function geminiImageTokens(width: number, height: number): number {
  if (width <= 384 && height <= 384) return 258;
  return Math.ceil(width / 768) * Math.ceil(height / 768) * 258;
}
