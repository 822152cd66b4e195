/** A request's or a delivery's state as a coloured word: running, succeeded, failed, pending, delivered. */
export function StateBadge({ state, testId }: { state: string; testId?: string }) {
  return <span className={`badge state-${state}`} data-testid={testId}>{state}</span>;
}
