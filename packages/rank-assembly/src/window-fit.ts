/** The size of a request against the one rate window every unit of it must fit in. */
export interface RequestSize {
  assets: number;
  /** Assets with copy_context: two evaluations each (the package and its image-only ablation). */
  assetsWithCopy: number;
  audiences: number;
  /** The most scoring evaluations it can use: what would be reserved. */
  maxEvaluations: number;
}

/**
 * Why a request can never be admitted, or null when it can. A reservation must fit the key's
 * rate window whole, so a request that needs more evaluations than the window holds would be
 * refused with 429 however long the caller waited: it is a 422 instead, naming the count, how
 * it arises and the limit. Only rankAcrossAudiences can get there (20 assets × 2 is 40).
 *
 * @example
 * oversizedForWindow({ assets: 20, assetsWithCopy: 20, audiences: 5, maxEvaluations: 200 }, 60);
 * // "This request needs up to 200 scoring evaluations (20 assets × 5 audiences × 2 with copy); …"
 */
export function oversizedForWindow(size: RequestSize, windowLimit: number): string | null {
  if (size.maxEvaluations <= windowLimit) return null;
  const assets = `${size.assets} asset${size.assets === 1 ? "" : "s"}`;
  const audiences = `${size.audiences} audience${size.audiences === 1 ? "" : "s"}`;
  const how =
    size.assetsWithCopy === 0
      ? `${assets} × ${audiences}`
      : size.assetsWithCopy === size.assets
        ? `${assets} × ${audiences} × 2 with copy`
        : `${assets}, ${size.assetsWithCopy} of them with copy at 2 each, × ${audiences}`;
  return `This request needs up to ${size.maxEvaluations} scoring evaluations (${how}); one request may use at most ${windowLimit}, the key's rate limit per minute. Send fewer assets or audiences.`;
}
