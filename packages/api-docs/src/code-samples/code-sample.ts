/** One entry of an operation's `x-codeSamples`, the extension the docs page shows as tabs. */
export interface CodeSample {
  lang: "shell" | "typescript";
  label: string;
  source: string;
}
