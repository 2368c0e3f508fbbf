/**
 * The dependency rule and the cycle check, run by `npm test` (`npm run check:deps`).
 * See docs/architecture.md: dependencies point inward; core is pure; adapters import core and
 * the service package, never each other; nothing imports the composition root.
 * Type-only imports are erased at compile time, so a cycle through one is no cycle at run time:
 * memory adapters import their ports' types only.
 */
const ADAPTERS = "(store-pg|anchor-base|http|client)"

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import cycle (through value imports). Break it by moving the shared value to its own module.",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } }
    },
    {
      name: "core-is-pure",
      severity: "error",
      comment: "@sigil/core is the pure, browser-safe library: no service, adapter or composition-root code.",
      from: { path: "^packages/core/src/" },
      to: { path: "^packages/(service|store-pg|anchor-base|http|server|client)/" }
    },
    {
      name: "core-has-no-infrastructure",
      severity: "error",
      comment: "No store, queue, transactor, mailer or HTTP module in @sigil/core.",
      from: { path: "^packages/core/src/" },
      to: {
        path: "(^|/)node_modules/(@effect/(sql|sql-pg|platform|platform-node|experimental)|pg|@electric-sql|viem|hardhat|nodemailer|esbuild)/"
      }
    },
    {
      name: "core-is-browser-safe",
      severity: "error",
      comment: "Node built-ins only in core's src/node/ (the node:crypto primitives), which the browser bundle never imports.",
      from: { path: "^packages/core/src/", pathNot: "^packages/core/src/node/" },
      to: { dependencyTypes: ["core"] }
    },
    {
      name: "service-has-no-adapters",
      severity: "error",
      comment: "@sigil/service holds use cases and ports; adapters implement the ports, never the other way round.",
      from: { path: "^packages/service/src/" },
      to: { path: "^packages/(store-pg|anchor-base|http|server|client)/" }
    },
    {
      name: "service-has-no-infrastructure",
      severity: "error",
      comment: "No driver, chain client, mailer or HTTP server in @sigil/service: those are adapters.",
      from: { path: "^packages/service/src/" },
      to: {
        path: "(^|/)node_modules/(@effect/(sql|sql-pg|platform|platform-node|experimental)|pg|@electric-sql|viem|hardhat|nodemailer|esbuild)/"
      }
    },
    {
      name: "adapters-stay-apart",
      severity: "error",
      comment: "Adapters import core and service, never each other (the client derives from the HTTP contract, by design).",
      from: { path: `^packages/${ADAPTERS}/` },
      to: { path: `^packages/${ADAPTERS}/`, pathNot: ["^packages/$1/", "^packages/http/src/"] }
    },
    {
      name: "only-the-client-uses-the-contract",
      severity: "error",
      comment: "Among the adapters only the client imports @sigil/http (its typed client is derived from the HttpApi).",
      from: { path: `^packages/(store-pg|anchor-base)/` },
      to: { path: "^packages/http/" }
    },
    {
      name: "nothing-imports-server",
      severity: "error",
      comment: "packages/server is the composition root: nothing imports it, not even benchmarks.",
      from: { pathNot: "^packages/server/" },
      to: { path: "^packages/server/src/" }
    },
    {
      name: "no-reaching-into-tests",
      severity: "error",
      comment: "Another package's test/ is private: share through a testkit export.",
      from: { path: "^packages/([^/]+)/" },
      to: { path: "^packages/[^/]+/test/", pathNot: "^packages/$1/test/" }
    }
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(build|dist)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".js", ".json"]
    },
    combinedDependencies: false
  }
}
