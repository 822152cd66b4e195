/** The content codings a static asset is offered in, best first. */
export type AssetEncoding = "br" | "gzip" | "identity";

/**
 * The coding to send for an Accept-Encoding header (RFC 9110 §12.5.3): brotli when accepted,
 * else gzip, else the bytes as they are. A coding with q=0 is refused, `*` stands for any
 * coding not named, and identity is always acceptable unless refused (we then send it anyway:
 * a 406 for documentation would help no one).
 */
export function chooseEncoding(header: string | string[] | undefined): AssetEncoding {
  const value = Array.isArray(header) ? header.join(",") : header;
  if (!value) return "identity";
  const weights = new Map<string, number>();
  for (const part of value.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find((m) => m)?.[1];
    weights.set(name, q === undefined ? 1 : Number(q));
  }
  const weightOf = (coding: string) => weights.get(coding) ?? weights.get("*") ?? 0;
  const gzip = Math.max(weightOf("gzip"), weights.get("x-gzip") ?? 0);
  const br = weightOf("br");
  if (br > 0 && br >= gzip) return "br";
  if (gzip > 0) return "gzip";
  return "identity";
}
