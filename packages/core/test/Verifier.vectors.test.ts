/**
 * Sigil's verifier on real third-party credentials: every Blockcerts vector gives the outcome
 * cert-verifier-js gives (expected-results.json), with the chain replayed from
 * chain-replay.json and the issuer documents from http-routes.json through the ports.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { readFileSync } from "node:fs"
import * as Canonicalizer from "../src/Canonicalizer.js"
import * as ChainReader from "../src/ChainReader.js"
import * as DidResolver from "../src/DidResolver.js"
import type { JsonObject } from "../src/Document.js"
import * as MerkleProof2019 from "../src/MerkleProof2019.js"
import * as StatusListReader from "../src/StatusListReader.js"
import * as Verifier from "../src/Verifier.js"

const dir = (path: string) => new URL(`./fixtures/vectors/${path}`, import.meta.url)
const json = (path: string) => JSON.parse(readFileSync(dir(path), "utf8"))

const routes = json("blockcerts/http-routes.json") as { didResolverUrl: string; routes: Record<string, string> }
const replay = json("blockcerts/chain-replay.json").vectors as Record<string, any>
const expected = json("blockcerts/expected-results.json") as Record<string, any>

/** Every URL of http-routes.json as a document. */
const documents = new Map<string, JsonObject>(
  Object.entries(routes.routes)
    .filter(([, file]) => !file.includes("contexts/")) // contexts come from the bundled loader
    .map(([url, file]) => [url, json(`blockcerts/${file}`)])
)
const resolverPrefix = `${routes.didResolverUrl}/`

const replayLayer = Layer.mergeAll(
  Canonicalizer.layerJsonld,
  DidResolver.layerMemory({
    dids: [...documents].filter(([url]) => url.startsWith(resolverPrefix) && !url.includes("#"))
      .map(([url, doc]) => [url.slice(resolverPrefix.length), doc.didDocument as JsonObject] as const),
    profiles: [...documents].filter(([url]) => !url.startsWith(resolverPrefix))
  }),
  StatusListReader.layerMemory([...documents].filter(([url]) => !url.startsWith(resolverPrefix))),
  ChainReader.layerMemory(
    Object.values(replay).filter((v) => v.transactionData).map((v): ChainReader.MemoryEntry => {
      const anchor = MerkleProof2019.fromBlink(v.anchor)
      if (anchor._tag === "None") throw new Error(`bad anchor ${v.anchor}`)
      const { chain, network, tx } = anchor.value
      const data = v.transactionData
      return {
        chain: chain === "eth" ? { family: "eth", chainId: network! } : { family: "btc", network: network === 1 ? "mainnet" : "testnet" },
        transaction: {
          hash: tx,
          input: chain === "eth" ? `0x${data.remoteHash}` : data.remoteHash,
          from: data.issuingAddress,
          blockNumber: v.etherscan ? parseInt(v.etherscan.eth_getTransactionByHash.blockNumber, 16) : 1,
          blockTimestamp: new Date(data.time),
          confirmations: 1
        }
      }
    })
  )
)

// cert-verifier-js step codes → Sigil's steps.
const stepOf: Record<string, Verifier.StepName> = {
  compareHashes: "documentHash",
  computeLocalHash: "documentHash",
  checkRevokedStatus: "status"
}

const verify = (document: unknown) => Verifier.verifyCredential(document, { now: new Date() }).pipe(Effect.provide(replayLayer))

describe("Verifier on the Blockcerts vectors", () => {
  for (const [file, want] of Object.entries(expected).filter(([k]) => !k.startsWith("_"))) {
    it.effect(`${file}: ${want.status}${want.step ? ` at ${want.step}` : ""}`, () =>
      Effect.gen(function*() {
        const result = yield* verify(json(`blockcerts/${file}`))
        if (want.status === "success") {
          assert.strictEqual(result.outcome, "verified", JSON.stringify(result.steps, null, 1))
          assert.isTrue(result.steps.every((s) => s.status !== "failed"))
        } else if (want.step === "checkRevokedStatus") {
          assert.strictEqual(result.outcome, want.message.includes("suspended") ? "suspended" : "revoked")
          if (want.message.includes("Reason given")) assert.strictEqual(result.revocationReason, "test revocation")
        } else {
          assert.strictEqual(result.outcome, "failed")
          assert.strictEqual(result.failedStep, stepOf[want.step])
        }
      }))
  }

  it.effect("the Sepolia credential reports its anchor: chain, block, time, sender", () =>
    Effect.gen(function*() {
      const result = yield* verify(json("blockcerts/credentials/ethereum-sepolia-v3.json"))
      assert.strictEqual(result.anchor?.chainLabel, "Ethereum Sepolia")
      assert.strictEqual(result.anchor?.sender, "0x40cf9b7db6fcc742ad0a76b8588c7f8de2b54a60")
      assert.strictEqual(result.anchor?.blockTimestamp?.toISOString(), "2022-11-02T02:33:24.000Z")
      assert.strictEqual(
        result.anchor?.explorerUrl,
        "https://sepolia.etherscan.io/tx/0x1f615470024000c3ab532ed74c5a60b8f6c2feb6489a67be20f103831996f9ab"
      )
    }))

  it.effect("a transaction the chain does not know fails at the anchor step", () =>
    Effect.gen(function*() {
      const doc = json("blockcerts/credentials/ethereum-sepolia-v3.json")
      const result = yield* Verifier.verifyCredential(doc, { now: new Date() }).pipe(
        Effect.provide(Layer.merge(replayLayer, ChainReader.layerMemory([])))
      )
      assert.strictEqual(result.failedStep, "anchor")
    }))
})

describe("Verifier on the OB 3.0 + Blockcerts vectors", () => {
  const generated = (file: string) => json(`ob3-blockcerts-generated/${file}`)
  const layer = Layer.mergeAll(
    replayLayer,
    DidResolver.layerMemory({
      profiles: [
        ["https://www.blockcerts.org/samples/3.0/issuer-blockcerts.json", generated("issuer-profile.blockcerts-sample.noproof.json")],
        ["https://issuer.example.org/issuer-profile.json", generated("issuer-profile.issuer.example.org.json")]
      ]
    })
  )
  const run = (file: string) => Verifier.verifyCredential(generated(file), { now: new Date() }).pipe(Effect.provide(layer))

  it.effect("the mocknet Merkle proof verifies (mocknet reported)", () =>
    Effect.gen(function*() {
      const result = yield* run("recommended.merkle-proof-2019.mocknet.json")
      assert.strictEqual(result.outcome, "verified")
      assert.isTrue(result.anchor?.mocknet)
    }))

  it.effect("the dual proof verifies both proofs; the Merkle hash covers the eddsa proof before it", () =>
    Effect.gen(function*() {
      const result = yield* run("recommended.eddsa-rdfc-2022+merkle-proof-2019.mocknet.json")
      assert.strictEqual(result.outcome, "verified", JSON.stringify(result.steps, null, 1))
      assert.strictEqual(result.steps.find((s) => s.name === "eddsaProof")?.status, "passed")
    }))

  it.effect("issuanceDate under VC 2.0 fails at documentHash, naming the undefined term", () =>
    Effect.gen(function*() {
      const result = yield* run("negative.vc2-with-issuanceDate.mocknet.json")
      assert.strictEqual(result.failedStep, "documentHash")
      assert.include(result.message, "issuanceDate")
    }))

  it.effect("a tampered subject fails at documentHash", () =>
    Effect.gen(function*() {
      const result = yield* run("negative.tampered-subject-name.mocknet.json")
      assert.strictEqual(result.failedStep, "documentHash")
    }))
})
