export interface GroupWriterOptions {
  /** The most items one write takes. */
  maxBatch: number;
  /** Writes running at once; items arriving meanwhile wait and go together in the next one. */
  maxInFlight: number;
}

/**
 * Group commit for rows that must be written before their request is answered: a lone item
 * is written at once, and items that arrive while `maxInFlight` writes run are combined
 * into the next write. Under load a stored answer then costs a share of one insert and one
 * commit instead of a whole one each, and nobody waits longer than one write for a slot.
 * A write that fails for a group is retried item by item, so one bad row fails only its own
 * request.
 */
export function createGroupWriter<T>(write: (items: T[]) => Promise<void>, { maxBatch, maxInFlight }: GroupWriterOptions) {
  const waiting: Array<{ item: T; resolve: () => void; reject: (err: unknown) => void }> = [];
  let inFlight = 0;

  const writeGroup = async (group: typeof waiting) => {
    try {
      await write(group.map((g) => g.item));
      for (const g of group) g.resolve();
    } catch (err) {
      if (group.length === 1) {
        group[0]!.reject(err);
        return;
      }
      await Promise.all(group.map((g) => write([g.item]).then(g.resolve, g.reject)));
    }
  };

  const pump = () => {
    while (inFlight < maxInFlight && waiting.length > 0) {
      inFlight++;
      void writeGroup(waiting.splice(0, maxBatch)).finally(() => {
        inFlight--;
        pump();
      });
    }
  };

  return {
    /** Resolves once the item is written (alone or in a group); rejects with its own write's error. */
    write(item: T): Promise<void> {
      return new Promise((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        pump();
      });
    },
  };
}
