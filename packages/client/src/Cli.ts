/**
 * The `sigil` command line (`npx sigil` in the workspace): issue from a CSV, list and read
 * batches, verify a credential file on this machine, and receive webhooks while developing.
 * `SIGIL_API_KEY` is the API key, `SIGIL_BASE_URL` the service (default `http://localhost:8080`).
 *
 * Exit codes: 0 success; 1 failure (invalid input, an API error, a credential that does not
 * verify); 2 usage error.
 *
 * @since 0.1.0
 */
import * as Args from "./internal/args.js"
import { batchesGet, batchesList } from "./cli/batches.js"
import { describeError, exitUsage, type Io, processIo, USAGE } from "./cli/common.js"
import { issue } from "./cli/issue.js"
import { verify } from "./cli/verify.js"
import { webhooksDelete, webhooksList, webhooksListen, webhooksTest } from "./cli/webhooks.js"

/**
 * Where the CLI reads and writes: the process's, or a test's.
 *
 * @since 0.1.0
 * @category models
 */
export type { Io } from "./cli/common.js"

/**
 * One line describing an event.
 *
 * @since 0.1.0
 * @category webhooks
 */
export { describeEvent } from "./cli/webhooks.js"


/**
 * Runs a command line (without `node sigil`); resolves with the exit code.
 *
 * @since 0.1.0
 * @category main
 */
export const main = async (argv: ReadonlyArray<string>, io: Io = processIo()): Promise<number> => {
  const [command, sub, ...rest] = argv
  try {
    switch (command) {
      case undefined:
      case "help":
      case "--help":
      case "-h":
        io.stdout.write(USAGE)
        return command === undefined ? 2 : 0
      case "--version":
        io.stdout.write("sigil 0.1.0\n")
        return 0
      case "issue":
        return await issue(argv.slice(1), io)
      case "verify":
        return await verify(argv.slice(1), io)
      case "batches":
        if (sub === "list") return await batchesList(rest, io)
        if (sub === "get") return await batchesGet(rest, io)
        return exitUsage(io, "batches takes list or get")
      case "webhooks":
        if (sub === "listen") return await webhooksListen(rest, io)
        if (sub === "list") return await webhooksList(rest, io)
        if (sub === "test") return await webhooksTest(rest, io)
        if (sub === "delete") return await webhooksDelete(rest, io)
        return exitUsage(io, "webhooks takes listen, list, test or delete")
      default:
        return exitUsage(io, `unknown command ${command}`)
    }
  } catch (error) {
    if (error instanceof Args.UsageError) return exitUsage(io, error.message)
    io.stderr.write(`sigil: ${describeError(error)}\n`)
    return 1
  }
}

