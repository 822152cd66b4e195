/**
 * Runs the samples of one evaluation, each group's first sample ahead of the rest of its group.
 *
 * The samples of an evaluation share their stable prefix (system text and image), and so do
 * the two layers of an asset (full ad package and image-only, two jobs with the same image and
 * system text). A provider's prompt cache holds that prefix only once the call that wrote it has
 * been answered (Anthropic's prompt-caching docs say so outright: concurrent requests miss), so
 * samples started together would all pay for the image in full. Samples whose `group` is not
 * null (a model and a prefix) are run so that one call per group goes first and the others start
 * when it has answered; they read the prefix from the cache. When `prefixes` knows a first call
 * of the same group already in flight in this process (the other layer's), every sample waits
 * for that one instead and then starts at once. Samples whose group is null all start at once.
 *
 * When a group's first sample fails (after its own replacement), the evaluation has failed, so
 * the rest of that group is not started and the first failure is thrown.
 *
 * The price is latency: an evaluation with a warmed group takes about two sample latencies
 * instead of one.
 *
 * @example
 * await warmFirst([{ group: "openai:gpt-4.1|<image>" }, { group: "openai:gpt-4.1|<image>" }], (s) => call(s));
 * // the second call starts when the first has answered
 */
export async function warmFirst<S extends { group: string | null }, T>(samples: readonly S[], run: (sample: S) => Promise<T>, prefixes?: PrefixWarmups): Promise<T[]> {
  const groups = new Map<string, Promise<unknown>>();
  const started = samples.map((sample) => {
    if (sample.group === null) return run(sample);
    const group = groups.get(sample.group);
    if (group) {
      // A follower of a failed first call is never started and fails with its error.
      return group.then(() => run(sample));
    }
    const warming = prefixes?.inFlight(sample.group);
    if (warming) {
      // The other layer's first call writes the same prefix: once it has answered, all of this group read it.
      // If it failed, this group's first call writes it again.
      const gate = warming.then(
        () => run(sample),
        () => run(sample),
      );
      const group = warming.catch(() => gate);
      // Followers carry any failure into the evaluation; this handle only keeps it from being reported unhandled.
      group.catch(() => {});
      groups.set(sample.group, group);
      return gate;
    }
    const first = run(sample);
    groups.set(sample.group, first);
    prefixes?.register(sample.group, first);
    return first;
  });
  return Promise.all(started);
}

/** The first calls in flight in this process, by group, so another evaluation of the same prefix can wait for them. */
export interface PrefixWarmups {
  inFlight(group: string): Promise<unknown> | undefined;
  register(group: string, first: Promise<unknown>): void;
}

export function createPrefixWarmups(): PrefixWarmups {
  const flights = new Map<string, Promise<unknown>>();
  return {
    inFlight: (group) => flights.get(group),
    register(group, first) {
      flights.set(group, first);
      const forget = () => {
        if (flights.get(group) === first) flights.delete(group);
      };
      first.then(forget, forget);
    },
  };
}
