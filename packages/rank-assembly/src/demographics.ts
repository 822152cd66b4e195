/**
 * Demographics as the scoring job carries them: exactly what the caller gave (saved audiences
 * come from jsonb, so scalars are kept as text and anything else is dropped). Defaults are
 * applied by the persona builder in the scorer, which also tells the model which values are
 * defaults; applying them here would hide that.
 */
export function givenDemographics(given: Readonly<Record<string, unknown>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(given ?? {})) {
    if (typeof value === "string") out[key] = value;
    else if (typeof value === "number" || typeof value === "boolean") out[key] = String(value);
  }
  return out;
}
