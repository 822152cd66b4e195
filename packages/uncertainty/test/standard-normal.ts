/**
 * Standard normal draws from a uniform generator by the Box–Muller transform:
 * √(−2 ln u₁)·cos(2π u₂) is N(0, 1) for independent uniform u₁, u₂ (1 − u keeps the log finite).
 */
export function standardNormal(uniform: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}
