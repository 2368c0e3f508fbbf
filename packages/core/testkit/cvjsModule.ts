/**
 * Loads `@blockcerts/cert-verifier-js` 6.35.0 (the Node build) and types the few bindings the
 * harness touches.
 *
 * The package's `main` (dist/verifier) crashes under Node (`self is not defined`), so we load
 * `dist/verifier-node`, a set of CommonJS chunks produced by rollup. We go through `createRequire`
 * on purpose: the chunks `require` each other lazily (the proof suites are loaded on first
 * verification), so they live in Node's CommonJS module cache, and the Base shim (baseShim.ts)
 * works on that cache. The chunk file names carry content hashes, so they pin the exact build.
 */
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

export const cjsRequire = createRequire(import.meta.url)

/** dist/verifier-node of the installed cert-verifier-js. */
export const CVJS_NODE_DIR = dirname(cjsRequire.resolve("@blockcerts/cert-verifier-js/dist/verifier-node/index.js"))

/** The chunk holding explorer-lookup (BLOCKCHAINS, lookForTx) and cvjs's core (Certificate, domain). */
export const CORE_CHUNK = join(CVJS_NODE_DIR, "index-HwlX98FB.js")
/** The chunk holding the bundled jsonld-signatures-merkleproof2019 + lds-merkle-proof-2019 code. */
export const MERKLE_PROOF_2019_CHUNK = join(CVJS_NODE_DIR, "MerkleProof2019-CRqI5ltz.js")

export type VerificationStatus = "standby" | "starting" | "success" | "failure"

export interface StepUpdate {
  readonly code: string
  readonly label?: string
  readonly status: VerificationStatus
  readonly errorMessage?: string
  readonly parentStep?: string
}

export interface FinalStatus {
  readonly code: string
  readonly status: VerificationStatus
  /** A string on failure; on success an i18n object `{label, description, linkText?}`. */
  readonly message: string | { readonly label?: string; readonly description?: string }
}

/** One `explorerAPIs` entry (explorer-lookup `ExplorerAPI`); only the RPC form is used here. */
export interface ExplorerApi {
  readonly apiType: "rpc"
  readonly priority: 0 | 1
  readonly serviceName?: string
  readonly parsingFunction: (args: { readonly transactionId: string }) => Promise<ExplorerTxData>
}

/** What an explorer's `parsingFunction` must return. */
export interface ExplorerTxData {
  readonly remoteHash: string
  readonly issuingAddress: string
  readonly time: string | Date
  readonly revokedAddresses: ReadonlyArray<string>
}

export interface BlockchainObject {
  readonly code: string
  readonly blinkCode: string
  readonly name: string
  readonly signatureValue: string
  readonly prefixes?: ReadonlyArray<string>
  readonly test?: boolean
  readonly transactionTemplates: { readonly full: string; readonly raw: string }
}

export interface Certificate {
  init(): Promise<void>
  verify(stepCallback?: (update: StepUpdate) => void): Promise<FinalStatus>
  readonly signers: ReadonlyArray<{ readonly chain?: BlockchainObject; readonly signatureSuiteType?: string }>
}

export interface CertificateOptions {
  readonly locale?: string
  readonly explorerAPIs?: Array<ExplorerApi>
  readonly didResolverUrl?: string
}

export interface CvjsIndex {
  readonly Certificate: new (definition: unknown, options?: CertificateOptions) => Certificate
  /** explorer-lookup's chain table, a single mutable object shared by every chunk. */
  readonly BLOCKCHAINS: Record<string, BlockchainObject>
}

export interface CvjsCoreChunk {
  readonly domain: { readonly did: { readonly didResolver: { url: string } } }
}

export const cvjs = (): CvjsIndex => cjsRequire("@blockcerts/cert-verifier-js/dist/verifier-node/index.js") as CvjsIndex

export const cvjsCore = (): CvjsCoreChunk => cjsRequire(CORE_CHUNK) as CvjsCoreChunk
