import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/support/setup.ts"],
    globalSetup: ["test/support/build-front-ends.ts"],
    testTimeout: 20_000,
    // Platform start-up (key generation, catalog, seeded policies) is slow on a loaded CI machine.
    hookTimeout: 60_000,
    pool: "forks",
  },
});
