/**
 * Embeds `texts` in consecutive requests of at most `maxBatchSize` texts (a provider's limit
 * per call), in order, so the vectors line up with the texts.
 */
export async function embedInBatches(
  texts: readonly string[],
  maxBatchSize: number,
  embedBatch: (batch: string[], signal?: AbortSignal) => Promise<number[][]>,
  signal?: AbortSignal,
): Promise<number[][]> {
  const out: number[][] = [];
  for (let i = 0; i < texts.length; i += maxBatchSize) out.push(...(await embedBatch(texts.slice(i, i + maxBatchSize), signal)));
  return out;
}
