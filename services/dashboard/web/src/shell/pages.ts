/** The console's pages in navigation order: each has its own address. */
export const PAGES = [
  { path: "/playground", label: "Playground" },
  { path: "/keys", label: "API keys" },
  { path: "/audiences", label: "Audiences" },
  { path: "/requests", label: "Requests" },
  { path: "/calibration", label: "Calibration" },
  { path: "/webhooks", label: "Webhooks" },
  { path: "/usage", label: "Credits & usage" },
] as const;

/** The page an address opens (one request's address opens under Requests), for the sign-in form's "continue to …" line. */
export const pageAt = (pathname: string) => {
  const path = pathname.replace(/\/+$/, "");
  return PAGES.find((p) => path === p.path || path.startsWith(`${p.path}/`));
};
