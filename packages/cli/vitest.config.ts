import { defineConfig } from "vitest/config";

// Many of these tests run the CLI as a process against a local fake API, as a user would. On
// CI's two cores, shared with every other workspace's tests, one process start can take a few
// seconds, so vitest's 5 s default timed out tests that were only slow to start. Each spawn
// keeps its own 30 s limit.
export default defineConfig({
  test: {
    testTimeout: 45_000,
  },
});
