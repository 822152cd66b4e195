// Names (metrics, goals, strata) are ordered by UTF-16 code units, not localeCompare: the
// order of an API answer must not depend on the server's locale.

export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
