/**
 * A tenant issuing offline, with everything a verifier needs served from memory: its DID
 * document and profile, a fake chain that "mines" anchors, status lists.
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { Effect, Layer } from "effect"
import * as Canonicalizer from "../src/Canonicalizer.js"
import * as ChainReader from "../src/ChainReader.js"
import * as Chains from "../src/Chains.js"
import * as DidResolver from "../src/DidResolver.js"
import type * as Document from "../src/Document.js"
import type { JsonObject } from "../src/Document.js"
import * as Eddsa from "../src/EddsaRdfc2022.js"
import * as Hex from "../src/Hex.js"
import * as Ids from "../src/Ids.js"
import * as Issuance from "../src/Issuance.js"
import type { TenantKey } from "@sigil/core/Keys"
import * as Keys from "../src/Keys.js"
import * as StatusList from "../src/StatusList.js"
import * as StatusListReader from "../src/StatusListReader.js"
import * as TenantDid from "@sigil/core/TenantDid"

export const BASE_URL = "https://sigil.example"

export const makeTenant = (options: {
  readonly keysCreatedAt: Date
  readonly recipientNameMode?: Document.RecipientNameMode
  readonly name?: string
}) => {
  const tenantId = Ids.unsafeMake("tnt")
  const urls = TenantDid.urls(BASE_URL, tenantId)
  const ed25519Secret = ed25519.utils.randomSecretKey()
  const secpSecret = secp256k1.utils.randomSecretKey()
  const key = (kind: "ed25519" | "secp256k1", fragment: string, publicKey: Uint8Array): TenantKey => ({
    keyId: Ids.unsafeMake("key"), tenantId, kind, fragment, publicKey, createdAt: options.keysCreatedAt, revokedAt: undefined
  })
  const keys = [
    key("secp256k1", "key-1", secp256k1.getPublicKey(secpSecret, true)),
    key("ed25519", "key-ed25519-1", ed25519.getPublicKey(ed25519Secret))
  ]
  const address = Keys.ethereumAddress(keys[0]!.publicKey)
  const settings: Issuance.IssuerSettings = {
    tenantId,
    issuer: { did: urls.did, name: options.name ?? "Université de Test", url: "https://univ.example" },
    recipientNameMode: options.recipientNameMode ?? "hashed",
    eddsaMethod: `${urls.did}#key-ed25519-1`,
    merkleMethod: `${urls.did}#key-1`
  }
  return { tenantId, urls, keys, address, settings, ed25519Secret, secpSecret }
}
export type Tenant = ReturnType<typeof makeTenant>

/** A fake chain: `anchor` "mines" a transaction from the tenant's address carrying the root. */
export const makeWorld = (tenants: ReadonlyArray<Tenant>) => {
  const chain = ChainReader.makeMemory()
  const resolver = DidResolver.makeMemory()
  const statusLists = StatusListReader.makeMemory()
  for (const t of tenants) {
    resolver.putDid(t.urls.did, TenantDid.didDocument({ urls: t.urls, keys: t.keys }))
    resolver.putProfile(t.urls.profile, TenantDid.issuerProfile({ urls: t.urls, name: t.settings.issuer.name, keys: t.keys }))
  }
  let block = 100
  const anchor = (root: string, from: string, at: Date, chainId = Chains.DEVNET_CHAIN_ID) => {
    const txHash = Hex.fromBytes(keccak_256(Hex.toBytes(`${root}${(++block).toString(16).padStart(8, "0")}`)))
    chain.record({ family: "eth", chainId }, {
      hash: txHash, input: root, from, blockNumber: block, blockTimestamp: at, confirmations: 3
    })
    return { chainId, txHash, created: at }
  }
  /** Publishes a signed StatusList2021 credential for a tenant with the given bits set. */
  const publishStatusList = (tenant: Tenant, url: string, revoked: ReadonlyArray<number>, issuedAt: Date) =>
    Effect.gen(function*() {
      let bits = StatusList.empty()
      for (const i of revoked) bits = StatusList.set(bits, i)
      const unsigned = StatusList.credential({ id: url, issuer: tenant.urls.did, issuanceDate: issuedAt.toISOString(), bits })
      const canonicalizer = yield* Canonicalizer.Canonicalizer
      const documentHash = Canonicalizer.sha256Bytes(yield* canonicalizer.canonicalize(unsigned))
      const options = { verificationMethod: tenant.settings.eddsaMethod, created: issuedAt.toISOString().replace(/\.\d{3}Z$/, "Z") }
      const proof = yield* Eddsa.sign({
        context: unsigned["@context"],
        documentHash,
        options,
        optionsHash: yield* Eddsa.optionsHash(unsigned["@context"], options),
        sign: (m) => Effect.succeed(ed25519.sign(m, tenant.ed25519Secret))
      })
      const signed: JsonObject = { ...unsigned, proof }
      statusLists.put(url, signed)
      return signed
    })
  const layer = Layer.mergeAll(
    Canonicalizer.layerFast,
    Layer.succeed(ChainReader.ChainReader, chain.service),
    Layer.succeed(DidResolver.DidResolver, resolver.service),
    Layer.succeed(StatusListReader.StatusListReader, statusLists.service)
  )
  return { chain, resolver, statusLists, anchor, publishStatusList, layer }
}

export const sampleContent = (i: number, overrides: Partial<Document.Content> = {}): Document.Content => ({
  recipient: { id: `urn:uuid:${crypto.randomUUID()}`, name: `Graduate ${i} — Zoë Ångström` },
  achievement: {
    name: "Master of Data Stewardship",
    description: "Awarded for completing the two-year programme.",
    alignment: [{ targetFramework: "ESCO", targetCode: "S5.6.1", targetName: "manage data" }]
  },
  issuanceDate: "2025-06-30T00:00:00Z",
  evidence: [{ narrative: "Thesis defended with distinction." }],
  ...overrides
})
