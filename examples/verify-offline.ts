/**
 * Verify a credential on your own machine with Sigil's verifier (the core alone does the
 * checking): document hash, Merkle path, the anchor transaction read from the chain, the
 * issuer's key from its DID document, the eddsa proof, the status list, the validity period.
 * Nothing asks Sigil's API for a verdict; public documents are fetched and checked.
 *
 *   npx tsx examples/verify-offline.ts credential.json [devnet RPC URL]
 */
import { NetworkVerifier } from "@sigil/client"
import { Canonicalizer, Verifier } from "@sigil/core"
import { Effect, Layer } from "effect"
import { readFileSync, realpathSync } from "node:fs"
import { pathToFileURL } from "node:url"

export const main = (document: unknown, options: { readonly devnetRpc?: string } = {}) =>
  Verifier.verifyCredential(document).pipe(
    Effect.provide(Layer.merge(
      // DID documents, status lists and chains over fetch. Base and Base Sepolia use their public
      // RPC endpoints; a local Sigil's devnet answers at <base URL>/devnet/rpc.
      NetworkVerifier.ports({
        rpc: { ...NetworkVerifier.defaultRpc(undefined), ...(options.devnetRpc === undefined ? {} : { "31337": options.devnetRpc }) }
      }),
      Canonicalizer.layerJsonld
    ))
  )

// Run directly (also through a symlinked path): the entry module is this file.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const [file, devnetRpc = "http://localhost:8080/devnet/rpc"] = process.argv.slice(2)
  if (file === undefined) throw new Error("usage: npx tsx examples/verify-offline.ts <credential.json> [devnet RPC URL]")
  const result = await Effect.runPromise(main(JSON.parse(readFileSync(file, "utf8")), { devnetRpc }))
  for (const step of result.steps) console.log(`${step.status.padEnd(7)} ${step.name}: ${step.message}`)
  console.log(result.message)
  process.exitCode = result.verified ? 0 : 1
}
