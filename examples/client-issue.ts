/**
 * Issue a batch with the client and wait until it is anchored: what an integrator's code does.
 *
 * Run it against a running Sigil (`npm start`):
 *   SIGIL_API_KEY=sigil_test_… SIGIL_BASE_URL=http://localhost:8080 npx tsx examples/client-issue.ts
 */
import { createClient, SigilError } from "@sigil/client/PromiseClient"
import { realpathSync } from "node:fs"
import { pathToFileURL } from "node:url"

export const main = async (options: { readonly baseUrl: string; readonly apiKey: string }) => {
  const sigil = createClient(options)

  // One batch of up to 500 credentials. Recipient ids are pseudonymous urn:uuid v4s that you keep
  // with your own records; names stay off-chain.
  const { batch } = await sigil.batches.create({
    credentials: ["Ada Lovelace", "Alan Turing", "Grace Hopper"].map((name) => ({
      recipient: { id: `urn:uuid:${crypto.randomUUID()}`, name },
      achievement: {
        name: "Certificate in Computing",
        description: "Completed the computing foundations programme.",
        criteria: { narrative: "Passed all six modules." }
      },
      issuanceDate: new Date().toISOString()
    }))
  })
  // `create` retried any 429 / 5xx / network failure with the same Idempotency-Key: one batch.
  console.log(`submitted ${batch.id} (${batch.status})`)

  // Poll with backoff until anchored (or subscribe to batch.anchored: see webhook-receiver.ts).
  const anchored = await sigil.batches.waitFor(batch.id, {
    onProgress: (b) => console.log(`  ${b.id} is ${b.status}`)
  })
  console.log(`anchored in ${anchored.anchor_transaction?.hash} on ${anchored.anchor_transaction?.chain}`)
  for (const credential of anchored.credentials ?? []) console.log(`  ${credential.id}  ${credential.verify_url}`)
  return anchored
}

// Run directly (also through a symlinked path): the entry module is this file.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  main({ baseUrl: process.env.SIGIL_BASE_URL ?? "http://localhost:8080", apiKey: process.env.SIGIL_API_KEY ?? "" }).catch((error) => {
    console.error(error instanceof SigilError ? `${error.code}: ${error.message}` : error)
    process.exitCode = 1
  })
}
