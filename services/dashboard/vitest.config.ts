import { defineConfig } from "vitest/config";

// Several of these tests start local servers, child processes or CPU-heavy fixtures. In CI they
// share two cores with every other workspace's tests and the system suites, where a test that
// takes 2 s alone took over vitest's 5 s (hooks: 10 s) default, so these limits are wider.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
