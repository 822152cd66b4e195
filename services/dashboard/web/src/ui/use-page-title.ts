import { useEffect } from "react";

/** The tab's title names the page, so history and bookmarks tell the pages apart. */
export function usePageTitle(page: string) {
  useEffect(() => {
    document.title = `${page} · adrank console`;
  }, [page]);
}
