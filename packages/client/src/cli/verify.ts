/**
 * `sigil verify`: a credential file checked on this machine, step by step.
 *
 * @internal
 */
import { readFileSync } from "node:fs"
import * as path from "node:path"
import * as Args from "../internal/args.js"
import * as NetworkVerifier from "../NetworkVerifier.js"
import { baseUrlOf, exitUsage, type Io } from "./common.js"

const MARK = { passed: "✔", failed: "✘", skipped: "–" } as const

export const verify = async (argv: ReadonlyArray<string>, io: Io): Promise<number> => {
  const args = Args.parse(argv, { repeated: ["rpc"], booleans: ["json", "help"] })
  if (Args.flag(args, "help")) {
    io.stdout.write(
      "Usage: sigil verify <credential.json> [--rpc <chainId>=<url>]... [--json]\n\n" +
        "Verifies a signed credential (or an API Credential with signed_credential) on this machine with\n" +
        "Sigil's verifier: document hash, Merkle path, anchor transaction, issuer key, eddsa proof, status,\n" +
        "validity. Exit 0 when it verifies, 1 otherwise. Chains: Base (8453) and Base Sepolia (84532) via\n" +
        "their public RPC, the devnet (31337) via $SIGIL_BASE_URL/devnet/rpc; --rpc replaces any of them.\n"
    )
    return 0
  }
  const [file, ...rest] = args.positionals
  if (file === undefined || rest.length > 0) return exitUsage(io, "verify needs one credential file")
  const rpc: Record<string, string> = { ...NetworkVerifier.defaultRpc(baseUrlOf(io)) }
  for (const entry of Args.all(args, "rpc")) {
    const eq = entry.indexOf("=")
    if (eq < 1 || !/^\d+$/.test(entry.slice(0, eq))) return exitUsage(io, `--rpc expects <chainId>=<url>, got ${entry}`)
    rpc[entry.slice(0, eq)] = entry.slice(eq + 1)
  }
  let document: unknown
  try {
    document = JSON.parse(readFileSync(path.resolve(io.cwd, file), "utf8"))
  } catch (error) {
    io.stderr.write(`sigil: ${file}: ${(error as Error).message}\n`)
    return 1
  }
  const json = Args.flag(args, "json")
  const width = 13
  if (!json) io.stdout.write(`Verifying ${file}\n`)
  const result = await NetworkVerifier.verify(document, {
    rpc,
    localOrigins: [baseUrlOf(io)],
    onStep: json ? undefined : (step) =>
      io.stdout.write(`  ${MARK[step.status]} ${step.name.padEnd(width)} ${step.message}\n`)
  })
  if (json) {
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
  } else {
    if (result.issuer !== undefined) io.stdout.write(`Issuer: ${result.issuer.name ?? "(no name)"} (${result.issuer.id})\n`)
    if (result.anchor !== undefined) {
      io.stdout.write(`Anchor: ${result.anchor.chainLabel}, transaction ${result.anchor.txHash}${result.anchor.blockNumber === undefined ? "" : `, block ${result.anchor.blockNumber}`}\n`)
    }
    io.stdout.write(`Result: ${result.verified ? "VERIFIED" : result.outcome.toUpperCase()}: ${result.message}\n`)
  }
  return result.verified ? 0 : 1
}
