/** At most this many pixels on both sides: a tracking pixel or a spacer, not a picture. */
export const TINY_IMAGE_SIDE = 8;

/** Per-channel standard deviation (0..255 scale) under which an image counts as one colour. */
export const UNIFORM_STD_DEV = 2;

/**
 * Per-channel population standard deviation of interleaved 8-bit pixels.
 * @example channelStdDevs(new Uint8Array([0, 0, 0, 255, 255, 255]), 3) // [127.5, 127.5, 127.5]
 */
export function channelStdDevs(pixels: Uint8Array, channels: number): number[] {
  const sums = new Float64Array(channels);
  const squares = new Float64Array(channels);
  const count = Math.floor(pixels.length / channels);
  for (let i = 0; i < count * channels; i += channels) {
    for (let c = 0; c < channels; c++) {
      const v = pixels[i + c] ?? 0;
      sums[c]! += v;
      squares[c]! += v * v;
    }
  }
  return Array.from(sums, (sum, c) => {
    if (count === 0) return 0;
    const mean = sum / count;
    return Math.sqrt(Math.max(0, (squares[c] ?? 0) / count - mean * mean));
  });
}

/**
 * Whether an image carries anything a viewer could read. False for tiny images and for a
 * single colour; the scorer then judges the ad on its copy alone (the `copy-only` layer).
 *
 * @example hasVisualContent({ width: 8, height: 8 }, [40, 40, 40]) // false
 */
export function hasVisualContent(source: { width: number; height: number }, stdDevs: readonly number[]): boolean {
  if (source.width <= TINY_IMAGE_SIDE && source.height <= TINY_IMAGE_SIDE) return false;
  return stdDevs.some((s) => s >= UNIFORM_STD_DEV);
}
