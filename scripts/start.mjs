#!/usr/bin/env node
// `npm start`: the Sigil service. Until @sigil/server exists this says so plainly.
console.log(
  "Sigil's service (@sigil/server) is not built yet.\n" +
    "What runs today: `npm test`, `npx tsx examples/issue-offline.ts`, `npm run bench`."
)
