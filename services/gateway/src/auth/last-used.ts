/**
 * Records when a key was last used without a write per request: at most one write per key
 * per `intervalMs` from this process (the repository's write also skips rows touched less
 * than a minute ago, for other gateway replicas). A failed write is only logged: it must
 * never fail the request it came from.
 */
export function createLastUsedRecorder({
  write,
  now,
  intervalMs = 60_000,
  onError,
}: {
  write(keyId: string, at: Date): Promise<void>;
  now: () => number;
  intervalMs?: number;
  onError(err: unknown, keyId: string): void;
}) {
  const lastWrite = new Map<string, number>();
  return {
    record(keyId: string): void {
      const t = now();
      const previous = lastWrite.get(keyId);
      if (previous !== undefined && t - previous < intervalMs) return;
      lastWrite.set(keyId, t);
      // Forget keys not seen for an interval so the map stays as small as the set of active keys.
      if (lastWrite.size > 10_000) for (const [k, at] of lastWrite) if (t - at >= intervalMs) lastWrite.delete(k);
      write(keyId, new Date(t)).catch((err: unknown) => onError(err, keyId));
    },
  };
}
