import { defineConfig } from "vitest/config";

// System tests start real service processes: one file at a time (2 cores are shared), with
// time-outs long enough for process start-up but bounded so a hung stack fails the run.
export default defineConfig({
  test: {
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 90_000,
    teardownTimeout: 30_000,
  },
});
