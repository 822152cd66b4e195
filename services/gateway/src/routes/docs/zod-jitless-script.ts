/**
 * Runs before Scalar's bundle. The bundle carries zod, which probes whether it may compile
 * validators with `Function("")`; under our script-src (no 'unsafe-eval') the probe is refused
 * and reported as a CSP violation. Telling zod to stay jitless, through the global config it
 * reads, skips the probe: the policy stays strict and the page raises no violation.
 */
export const ZOD_JITLESS_SCRIPT = "globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };\n";
