/** "10 MiB", "12.5 MiB", "900 KiB" for sentences about size limits. */
export function formatBytes(n: number): string {
  const mib = n / (1024 * 1024);
  if (mib >= 1) return `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB`;
  return `${Math.ceil(n / 1024)} KiB`;
}
