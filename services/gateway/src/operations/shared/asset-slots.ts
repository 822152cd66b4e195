/**
 * Runs `run` over the items with at most `limit` in flight, keeping results in input order.
 * Once `signal` has fired no further item is started: `skipped` answers for it instead.
 */
export async function mapWithSlots<T, R>(
  items: readonly T[],
  limit: number,
  signal: AbortSignal,
  run: (item: T, index: number) => Promise<R>,
  skipped: (item: T, index: number) => R,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const slot = async () => {
    while (next < items.length) {
      const index = next++;
      const item = items[index]!;
      results[index] = signal.aborted ? skipped(item, index) : await run(item, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, slot));
  return results;
}

/**
 * Starts `run` on every item in input order, at most `limit` at a time, and hands back each
 * item's promise at once. `run` must not reject: an item nobody awaits any more (its slot was
 * skipped) would otherwise surface as an unhandled rejection.
 */
export function startInOrder<T, R>(items: readonly T[], limit: number, run: (item: T, index: number) => Promise<R>): Promise<R>[] {
  const pending = items.map(() => Promise.withResolvers<R>());
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      try {
        pending[index]!.resolve(await run(items[index]!, index));
      } catch (err) {
        pending[index]!.reject(err);
      }
    }
  };
  for (let i = 0; i < Math.min(Math.max(1, limit), items.length); i++) void lane();
  return pending.map(({ promise }) => {
    promise.catch(() => {});
    return promise;
  });
}
