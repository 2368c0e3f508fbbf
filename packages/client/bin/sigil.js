#!/usr/bin/env node
// The `sigil` command: runs the TypeScript sources of @sigil/client through tsx (the workspace
// ships no build step).
import { register } from "tsx/esm/api"

register()
const { main } = await import("../src/Cli.ts")
process.exitCode = await main(process.argv.slice(2))
