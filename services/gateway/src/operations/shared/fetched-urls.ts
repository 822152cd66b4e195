/**
 * How many image URLs a request makes the gateway fetch: its distinct https:// URLs. A data
 * URI is decoded, not fetched. Counted in the account's fetch window (the ledger's
 * LEDGER_ACCOUNT_FETCH_LIMIT), which bounds the fetches a caller can have us make whatever
 * the requests end up costing.
 */
export function fetchedUrlsOf(urls: readonly string[]): number {
  const fetched = new Set<string>();
  for (const url of urls) if (!/^data:/i.test(url)) fetched.add(url);
  return fetched.size;
}
