import { defineConfig } from "vitest/config"

// One vitest project per package; `npm test` runs them all.
export default defineConfig({
  test: {
    projects: ["packages/*", "examples"]
  }
})
