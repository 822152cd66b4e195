import type { ReactNode } from "react";

/** What a page shows before there is anything to list: what goes here, and the first step. */
export function EmptyState({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <div className="empty card" data-testid={testId}>
      <h2>{title}</h2>
      {children}
    </div>
  );
}
