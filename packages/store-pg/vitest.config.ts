import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "store-pg",
    include: ["test/**/*.test.ts"],
    // One migrated PGlite data directory, copied by each test file (initdb once, not per file).
    globalSetup: ["testkit/globalSetup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000
  }
})
