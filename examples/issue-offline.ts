/**
 * Issue a batch with the core alone, no server: sign three credentials, anchor their Merkle
 * root on a fake in-memory chain, and verify every credential as a stranger would, from the
 * issuer's DID document and the chain.
 *
 * Run it: `npx tsx examples/issue-offline.ts`
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import {
  Canonicalizer,
  ChainReader,
  Chains,
  DidResolver,
  type Document,
  Ids,
  Issuance,
  Keys,
  StatusListReader,
  TenantDid,
  Verifier
} from "@sigil/core"
import { Effect, Layer } from "effect"
import { realpathSync } from "node:fs"
import { pathToFileURL } from "node:url"

/** What the example returns, so a test can check it. */
export interface Outcome {
  readonly merkleRoot: string
  readonly transaction: string
  readonly results: ReadonlyArray<Verifier.Result>
}

export const main = Effect.gen(function*() {
  // 1. The issuer: an id, its DID (did:web under its own domain) and two keys.
  const tenantId = Ids.unsafeMake("tnt")
  const urls = TenantDid.urls("https://credentials.example.edu", tenantId)
  const ed25519Secret = ed25519.utils.randomSecretKey() // signs the credentials
  const secpSecret = secp256k1.utils.randomSecretKey() // sends the anchoring transaction
  const keysCreatedAt = new Date("2025-01-01T00:00:00Z")
  const keys: ReadonlyArray<Keys.TenantKey> = [
    { keyId: "k1", tenantId, kind: "secp256k1", fragment: "key-1", publicKey: secp256k1.getPublicKey(secpSecret, true), createdAt: keysCreatedAt, revokedAt: undefined },
    { keyId: "k2", tenantId, kind: "ed25519", fragment: "key-ed25519-1", publicKey: ed25519.getPublicKey(ed25519Secret), createdAt: keysCreatedAt, revokedAt: undefined }
  ]
  const settings: Issuance.IssuerSettings = {
    tenantId,
    issuer: { did: urls.did, name: "Example University", url: "https://example.edu" },
    recipientNameMode: "hashed",
    eddsaMethod: `${urls.did}#key-ed25519-1`,
    merkleMethod: `${urls.did}#key-1`
  }

  // 2. The batch: each credential's content (the hosted API validates the same fields first).
  const request: { readonly credentials: ReadonlyArray<Document.Content> } = {
    credentials: ["Ada Lovelace", "Alan Turing", "Grace Hopper"].map((name) => ({
      recipient: { id: `urn:uuid:${crypto.randomUUID()}`, name },
      achievement: {
        name: "Certificate in Computing",
        description: "Completed the computing foundations programme.",
        alignment: [{ targetFramework: "ISCED-F", targetCode: "0613", targetName: "Software and applications development" }]
      },
      issuanceDate: "2025-06-30T00:00:00Z"
    }))
  }

  // 3. Sign: every credential gets its eddsa-rdfc-2022 proof; the batch gets a Merkle root.
  const batch = yield* Issuance.issueOffline({
    credentials: request.credentials,
    settings,
    ed25519SecretKey: ed25519Secret,
    signedAt: new Date("2025-06-30T10:00:00Z")
  })

  // 4. Anchor: a real deployment sends one transaction carrying the root; here a fake chain
  //    records it, as the devnet would.
  const chain = ChainReader.makeMemory()
  const anchoredAt = new Date("2025-06-30T10:00:12Z")
  const txHash = "0x" + "ab".repeat(32)
  chain.record({ family: "eth", chainId: Chains.DEVNET_CHAIN_ID }, {
    hash: txHash,
    input: batch.merkleRoot,
    from: Keys.ethereumAddress(keys[0]!.publicKey),
    blockNumber: 1,
    blockTimestamp: anchoredAt,
    confirmations: 1
  })
  const credentials = batch.complete({ chainId: Chains.DEVNET_CHAIN_ID, txHash, created: anchoredAt })

  // 5. Verify each credential as a stranger: DID document and profile, chain, proofs.
  const world = Layer.mergeAll(
    Layer.succeed(ChainReader.ChainReader, chain.service),
    DidResolver.layerMemory({
      dids: [[urls.did, TenantDid.didDocument({ urls, keys })]],
      profiles: [[urls.profile, TenantDid.issuerProfile({ urls, name: "Example University", keys })]]
    }),
    StatusListReader.layerMemory()
  )
  const results = yield* Effect.forEach(credentials, (credential) => Verifier.verifyCredential(credential)).pipe(
    Effect.provide(world)
  )
  return { merkleRoot: batch.merkleRoot, transaction: txHash, results } satisfies Outcome
}).pipe(Effect.provide(Canonicalizer.layerJsonld))

// Run directly: print each credential's verdict, step by step.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  Effect.runPromise(main).then((outcome) => {
    console.log(`Merkle root ${outcome.merkleRoot}, anchored in ${outcome.transaction}`)
    for (const result of outcome.results) {
      console.log(`\n${result.credentialId}: ${result.message}`)
      for (const step of result.steps) console.log(`  ${step.status.padEnd(7)} ${step.name}: ${step.message}`)
    }
    process.exitCode = outcome.results.every((r) => r.verified) ? 0 : 1
  })
}
