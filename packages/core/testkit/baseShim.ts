/**
 * The Base shim: a test-only registration of Sigil's EVM chains in cert-verifier-js 6.35.0
 * (decisions §1: "our conformance test runs cert-verifier-js with a small test-only registration
 * of the Base chain ids plus a custom explorer that reads our chain").
 *
 * WHY. Sigil writes an anchor as chain `eth` with network = the EVM chain id (8453 Base, 84532 Base
 * Sepolia, 31337 the embedded devnet). Stock cvjs knows only the Ethereum L1 network ids, in three
 * places, and fails on any other (research/blockcerts.md §0.1, §3.6):
 *   1. the lds-merkle-proof-2019 Keymap (`eth.networks`) decodes network 84532 to `undefined`, so the
 *      anchor becomes `blink:eth:undefined:0x…`, no chain is found, and verify() crashes with
 *      "Cannot read properties of null (reading 'transactionLink')";
 *   2. explorer-lookup's `BLOCKCHAINS` table has no entry to resolve the anchor to;
 *   3. `deriveIssuingAddressFromPublicKey` (jsonld-signatures-merkleproof2019) derives an address
 *      only for a fixed `switch` of chain codes and throws "Unsupported blockchain for DID
 *      verification" for any other.
 *
 * WHAT IT CHANGES, and nothing else:
 *   - Keymap: adds `base: 8453, baseSepolia: 84532, sigilDevnet: 31337` to `eth.networks`
 *     (existing entries untouched), so those anchors decode to `blink:eth:base|baseSepolia|sigilDevnet:0x…`.
 *   - BLOCKCHAINS: adds three entries (`ethbase`, `ethbasesepolia`, `ethsigildevnet`) whose
 *     `signatureValue` is what cvjs's getChain builds from those anchors (`ethereum` +
 *     Capitalized(network)). They have NO `test` flag, so cvjs does not treat them as mock chains
 *     and every proof, key and identity step keeps running; and their codes are unknown to
 *     explorer-lookup's `getExplorersByChain`, so the transaction is looked up ONLY through the
 *     custom `explorerAPIs` (no Etherscan fallback to a wrong chain).
 *   - deriveIssuingAddressFromPublicKey: adds the three codes as `case` labels next to the
 *     Ethereum ones, so they get the same derivation `0x + last20(keccak256(X‖Y))`. An EVM address
 *     does not depend on the chain, so this is the same check cvjs runs for Sepolia.
 *
 * HOW. Keymap and the derivation switch are module-private in the bundled chunk
 * `dist/verifier-node/MerkleProof2019-CRqI5ltz.js`; nothing exported reaches them. BLOCKCHAINS is
 * exported and shared, so it is mutated in place. For the chunk, we compile an in-memory copy with
 * two exact text insertions (each must match exactly once, else we throw: a different cvjs build
 * needs a new review) under the chunk's own file name, and swap it into Node's CommonJS module cache
 * for the duration of one run. cvjs `require`s that chunk lazily on every verification, so the
 * stock chunk is back as soon as the run ends; the stock verifier and the shimmed one can be
 * compared in the same process. Nothing in src/ and no file on disk is touched.
 */
import { readFileSync } from "node:fs"
import { Module } from "node:module"
import { cjsRequire, CVJS_NODE_DIR, cvjs, MERKLE_PROOF_2019_CHUNK, type BlockchainObject } from "./cvjsModule.js"

export interface ShimChain {
  /** EVM chain id = the network number in Sigil's anchors. */
  readonly chainId: number
  /** The network label the patched Keymap decodes the chain id to (`blink:eth:<network>:…`). */
  readonly network: string
  readonly blockchain: BlockchainObject
}

const TX = "{transaction_id}"

export const SHIM_CHAINS: ReadonlyArray<ShimChain> = [
  {
    chainId: 8453,
    network: "base",
    blockchain: {
      code: "ethbase",
      blinkCode: "eth",
      name: "Base",
      prefixes: ["0x"],
      signatureValue: "ethereumBase",
      transactionTemplates: { full: `https://basescan.org/tx/${TX}`, raw: `https://basescan.org/tx/${TX}` }
    }
  },
  {
    chainId: 84532,
    network: "baseSepolia",
    blockchain: {
      code: "ethbasesepolia",
      blinkCode: "eth",
      name: "Base Sepolia",
      prefixes: ["0x"],
      signatureValue: "ethereumBasesepolia",
      transactionTemplates: { full: `https://sepolia.basescan.org/tx/${TX}`, raw: `https://sepolia.basescan.org/tx/${TX}` }
    }
  },
  {
    chainId: 31337,
    network: "sigilDevnet",
    blockchain: {
      code: "ethsigildevnet",
      blinkCode: "eth",
      name: "Sigil devnet",
      prefixes: ["0x"],
      signatureValue: "ethereumSigildevnet",
      transactionTemplates: { full: "", raw: "" }
    }
  }
]

/** The two insertions into MerkleProof2019-CRqI5ltz.js (tabs and spaces as in the 6.35.0 file). */
const HUNKS: ReadonlyArray<{ readonly find: string; readonly replace: string }> = [
  {
    // Keymap.chain.eth.networks (lds-merkle-proof-2019 src/Keymap.js)
    find: "\t      goerli: 5,\n\t      sepolia: 11155111\n\t    }",
    replace: "\t      goerli: 5,\n\t      sepolia: 11155111,\n" +
      SHIM_CHAINS.map((c) => `\t      ${c.network}: ${c.chainId}`).join(",\n") +
      " // Sigil test-only Base shim\n\t    }"
  },
  {
    // deriveIssuingAddressFromPublicKey (jsonld-signatures-merkleproof2019)
    find: "        case index$1.SupportedChains.Ethsepolia:\n" +
      "            address = computeEthereumAddressFromPublicKey(publicKey);",
    replace: "        case index$1.SupportedChains.Ethsepolia:\n" +
      SHIM_CHAINS.map((c) => `        case '${c.blockchain.code}': // Sigil test-only Base shim\n`).join("") +
      "            address = computeEthereumAddressFromPublicKey(publicKey);"
  }
]

const patchSource = (source: string): string =>
  HUNKS.reduce((text, { find, replace }) => {
    const count = text.split(find).length - 1
    if (count !== 1) {
      throw new Error(`Base shim: expected exactly one match in ${MERKLE_PROOF_2019_CHUNK}, found ${count}. ` +
        "The installed cert-verifier-js is not the reviewed 6.35.0 build; review the shim again.")
    }
    return text.replace(find, () => replace)
  }, source)

interface CompilableModule {
  filename: string
  paths: Array<string>
  loaded: boolean
  exports: unknown
  _compile(content: string, filename: string): void
}

let patchedChunk: NodeJS.Module | undefined

const getPatchedChunk = (): NodeJS.Module => {
  if (patchedChunk === undefined) {
    const source = patchSource(readFileSync(MERKLE_PROOF_2019_CHUNK, "utf8"))
    const mod = new Module(MERKLE_PROOF_2019_CHUNK) as unknown as CompilableModule
    mod.filename = MERKLE_PROOF_2019_CHUNK
    // Same file name and lookup paths as the original: its `require('./index-….js')` calls resolve
    // to the very chunk instances the rest of cvjs uses (one BLOCKCHAINS, one SupportedChains).
    mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): Array<string> })._nodeModulePaths(CVJS_NODE_DIR)
    mod._compile(source, MERKLE_PROOF_2019_CHUNK)
    mod.loaded = true
    patchedChunk = mod as unknown as NodeJS.Module
  }
  return patchedChunk
}

/** True while a run is inside withBaseShim. */
export const isBaseShimActive = (): boolean => cvjs().BLOCKCHAINS["ethbasesepolia"] !== undefined

/**
 * Runs `run` with the Base shim installed in cert-verifier-js and removes it afterwards, even on
 * failure. Not reentrant.
 */
export const withBaseShim = async <A>(run: () => Promise<A>): Promise<A> => {
  const blockchains = cvjs().BLOCKCHAINS
  if (isBaseShimActive()) throw new Error("withBaseShim: already active")
  const cache = cjsRequire.cache
  const stock = cache[MERKLE_PROOF_2019_CHUNK]
  cache[MERKLE_PROOF_2019_CHUNK] = getPatchedChunk()
  for (const { blockchain } of SHIM_CHAINS) blockchains[blockchain.code] = blockchain
  try {
    return await run()
  } finally {
    for (const { blockchain } of SHIM_CHAINS) delete blockchains[blockchain.code]
    if (stock === undefined) delete cache[MERKLE_PROOF_2019_CHUNK]
    else cache[MERKLE_PROOF_2019_CHUNK] = stock
  }
}
