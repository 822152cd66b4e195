/** "4 Mar 2026, 14:05" in the reader's locale and zone; "never" for no date. */
export const dateTime = (iso: string | null): string => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "never");

/** A UTC day (`YYYY-MM-DD`) as "Mar 4"; usage is counted per UTC day, so it is read in UTC. */
export const shortDay = (day: string): string => new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { timeZone: "UTC", month: "short", day: "numeric" });

/** A UTC day as "Tue, Mar 4, 2026". */
export const longDay = (day: string): string =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { timeZone: "UTC", weekday: "short", month: "short", day: "numeric", year: "numeric" });

/** "4 Mar 2026, 14:05:09": to the second, for attempts that come seconds apart. */
export const preciseDateTime = (iso: string): string => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
