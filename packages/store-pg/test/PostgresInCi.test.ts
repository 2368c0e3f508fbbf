/**
 * CI never skips the Postgres suites silently: with `CI=true` an unreachable server is a failure.
 */
import { describe, expect, it } from "vitest"
import { mayRunWithout } from "../testkit/database.js"

describe("the Postgres suites' skip rule", () => {
  it("skips when no server answers outside CI", () => {
    expect(mayRunWithout(false, {})).toBe(false)
    expect(mayRunWithout(false, { CI: "false" })).toBe(false)
  })

  it("fails, naming the fix, when no server answers in CI", () => {
    expect(() => mayRunWithout(false, { CI: "true" })).toThrow(/CI=true and PostgreSQL is not reachable.*pg_ctlcluster/)
  })

  it("runs when the server answers", () => {
    expect(mayRunWithout(true, { CI: "true" })).toBe(true)
    expect(mayRunWithout(true, {})).toBe(true)
  })
})
