/** The console's pages in navigation order: each has its own address. */
export const PAGES = [
  { path: "/playground", label: "Playground" },
  { path: "/keys", label: "API keys" },
  { path: "/audiences", label: "Audiences" },
  { path: "/usage", label: "Credits & usage" },
] as const;

/** The page an address opens, for the sign-in form's "continue to …" line. */
export const pageAt = (pathname: string) => PAGES.find((p) => p.path === pathname.replace(/\/+$/, ""));
