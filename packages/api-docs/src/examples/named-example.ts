/** An OpenAPI Example Object: what the docs page lists by `summary` and "Test request" sends. */
export interface NamedExample<T> {
  summary: string;
  description?: string;
  value: T;
}

/** Named examples of one body; the first is the one a reader sees first and the code samples send. */
export type Examples<T> = Record<string, NamedExample<T>>;
